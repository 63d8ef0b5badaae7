package io.jsalt.transport.target;

import java.util.regex.Pattern;

/** Shell-style patterns as Python's fnmatch: {@code *}, {@code ?}, {@code [seq]}, {@code [!seq]}. */
public final class Glob {
    private Glob() {}

    public static Pattern compile(String glob) {
        StringBuilder re = new StringBuilder();
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i++);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '[' -> i = appendClass(glob, i, re);
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    /** Appends a character class starting after '['; a '[' without its ']' is a literal, as in fnmatch. */
    private static int appendClass(String glob, int start, StringBuilder re) {
        int j = start;
        if (j < glob.length() && glob.charAt(j) == '!') {
            j++;
        }
        if (j < glob.length() && glob.charAt(j) == ']') {
            j++;
        }
        while (j < glob.length() && glob.charAt(j) != ']') {
            j++;
        }
        if (j >= glob.length()) {
            re.append("\\[");
            return start;
        }
        String body = glob.substring(start, j);
        boolean negated = body.startsWith("!");
        StringBuilder members = new StringBuilder();
        for (int k = negated ? 1 : 0; k < body.length(); k++) {
            char ch = body.charAt(k);
            boolean range = k + 2 < body.length() && body.charAt(k + 1) == '-';
            if (range && body.charAt(k + 2) < ch) {
                k += 2; // a reversed range such as z-a matches nothing, as in Python's fnmatch
                continue;
            }
            appendClassChar(members, ch);
            if (range) {
                members.append('-');
                appendClassChar(members, body.charAt(k + 2));
                k += 2;
            }
        }
        if (members.length() == 0) {
            re.append(negated ? "." : "(?!)");
        } else {
            re.append('[').append(negated ? "^" : "").append(members).append(']');
        }
        return j + 1;
    }

    private static void appendClassChar(StringBuilder cls, char ch) {
        if (ch == '\\' || ch == '[' || ch == ']' || ch == '&' || ch == '^' || ch == '-') {
            cls.append('\\');
        }
        cls.append(ch);
    }
}
