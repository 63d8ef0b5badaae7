package io.jsalt.transport.target;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Shell-style patterns as Python's fnmatch: {@code *}, {@code ?}, {@code [seq]}, {@code [!seq]}. Translated to
 * a regular expression the way Python 3.9+ does it, so matching stays linear: the text between two stars is
 * found by its first occurrence inside an atomic group ({@code (?>.*?mid)}) and never tried again, where a
 * plain {@code .*mid1.*mid2...} backtracks over every split of the subject (a glob with a few dozen stars
 * against a long id or grain took minutes; found by fuzzing, docs/security.md).
 */
public final class Glob {
    private Glob() {}

    public static Pattern compile(String glob) {
        List<StringBuilder> parts = new ArrayList<>(); // the regex of each run between stars
        parts.add(new StringBuilder());
        int i = 0;
        while (i < glob.length()) {
            int c = glob.codePointAt(i);
            i += Character.charCount(c);
            StringBuilder current = parts.get(parts.size() - 1);
            switch (c) {
                case '*' -> {
                    if (current.length() > 0 || parts.size() == 1) {
                        parts.add(new StringBuilder()); // consecutive stars are one star
                    }
                }
                case '?' -> current.append('.');
                case '[' -> i = appendClass(glob, i, current);
                default -> current.append(Pattern.quote(Character.toString(c)));
            }
        }
        StringBuilder re = new StringBuilder(parts.get(0));
        if (parts.size() > 1) {
            for (StringBuilder middle : parts.subList(1, parts.size() - 1)) {
                re.append("(?>.*?").append(middle).append(')');
            }
            re.append(".*").append(parts.get(parts.size() - 1));
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
        // code points, not chars: Python's str is code points, and a range ending in half a surrogate pair
        // is no range a regular expression takes (PatternSyntaxException; found by fuzzing)
        String whole = glob.substring(start, j);
        boolean negated = whole.startsWith("!");
        int[] body = whole.codePoints().toArray();
        StringBuilder members = new StringBuilder();
        for (int k = negated ? 1 : 0; k < body.length; k++) {
            int ch = body[k];
            boolean range = k + 2 < body.length && body[k + 1] == '-';
            if (range && body[k + 2] < ch) {
                k += 2; // a reversed range such as z-a matches nothing, as in Python's fnmatch
                continue;
            }
            appendClassChar(members, ch);
            if (range) {
                members.append('-');
                appendClassChar(members, body[k + 2]);
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

    private static void appendClassChar(StringBuilder cls, int ch) {
        if (ch == '\\' || ch == '[' || ch == ']' || ch == '&' || ch == '^' || ch == '-') {
            cls.append('\\');
        }
        if (Character.isSurrogate((char) ch) || ch < 0x20) {
            cls.append(String.format("\\x{%x}", ch)); // a lone surrogate or a control character, by number
        } else {
            cls.appendCodePoint(ch);
        }
    }
}
