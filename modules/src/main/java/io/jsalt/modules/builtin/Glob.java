package io.jsalt.modules.builtin;

import java.util.regex.Pattern;

/**
 * A shell-style pattern ({@code *}, {@code ?}, {@code [abc]}, {@code [!abc]}), like Python's fnmatch. Public for
 * the states library, whose requisite targets Salt matches with fnmatch too.
 */
public final class Glob {

    private final Pattern pattern;

    private Glob(Pattern pattern) {
        this.pattern = pattern;
    }

    public static Glob of(String glob) {
        StringBuilder regex = new StringBuilder();
        int length = glob.length();
        for (int i = 0; i < length; i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                regex.append(".*");
            } else if (c == '?') {
                regex.append('.');
            } else if (c == '[') {
                int close = glob.indexOf(']', i + 2);
                if (close < 0) {
                    regex.append("\\[");
                    continue;
                }
                String set = glob.substring(i + 1, close);
                regex.append('[');
                if (set.startsWith("!")) {
                    regex.append('^');
                    set = set.substring(1);
                }
                if (set.startsWith("^")) {
                    regex.append('\\');
                }
                // '[' and '&&' mean something inside a Java character class, not in fnmatch
                regex.append(set.replace("\\", "\\\\").replace("[", "\\[").replace("&", "\\&")).append(']');
                i = close;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new Glob(Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    public boolean matches(String text) {
        return pattern.matcher(text).matches();
    }

    /** Whether the text holds a glob character. */
    public static boolean isGlob(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0 || text.indexOf('[') >= 0;
    }
}
