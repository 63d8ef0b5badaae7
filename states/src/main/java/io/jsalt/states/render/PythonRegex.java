package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Python's {@code re} on Java's regular expressions, for Salt's regex filters: the pattern syntax that differs
 * ({@code (?P<name>...)}, {@code (?P=name)}, {@code \Z}), Python 3's Unicode classes and its line rules, and
 * {@code re.sub}'s replacement templates ({@code \1}, {@code \g<name>}).
 */
final class PythonRegex {
    private PythonRegex() {
    }

    static Pattern compile(String regex, boolean ignorecase, boolean multiline) {
        // Python 3 str patterns: \w, \d, \s are Unicode; only \n ends a line (for '.', '$' and '^')
        int flags = Pattern.UNICODE_CHARACTER_CLASS | Pattern.UNIX_LINES;
        if (ignorecase) {
            flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        }
        if (multiline) {
            flags |= Pattern.MULTILINE;
        }
        try {
            return Pattern.compile(translate(regex), flags);
        } catch (PatternSyntaxException e) {
            throw new RenderException("bad regular expression '" + regex + "': " + e.getDescription());
        }
    }

    /** Python's syntax where Java's differs, outside character classes and escapes. */
    static String translate(String regex) {
        StringBuilder out = new StringBuilder();
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                char next = regex.charAt(i + 1);
                out.append(c).append(next == 'Z' && !inClass ? 'z' : next);
                i++;
            } else if (inClass) {
                if (c == '[') {
                    out.append("\\["); // a literal '[' inside a class in Python; Java would nest a class
                } else {
                    out.append(c);
                    inClass = c != ']' || out.charAt(out.length() - 2) == '[';
                }
            } else if (c == '[') {
                out.append(c);
                inClass = true;
                if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
                    out.append('^');
                    i++;
                }
                if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
                    out.append("\\]"); // Python: a ']' first in a class is a literal
                    i++;
                }
            } else if (regex.startsWith("(?P<", i)) {
                out.append("(?<");
                i += 3;
            } else if (regex.startsWith("(?P=", i)) {
                int end = regex.indexOf(')', i);
                if (end < 0) {
                    throw new RenderException("bad regular expression '" + regex + "': missing ), unterminated name");
                }
                out.append("\\k<").append(regex, i + 4, end).append('>');
                i = end;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Python's {@code match.groups()}: each group's text, or None for a group that took no part. */
    static PyTuple groups(Matcher m) {
        List<Object> groups = new ArrayList<>();
        for (int g = 1; g <= m.groupCount(); g++) {
            groups.add(m.group(g));
        }
        return new PyTuple(groups);
    }

    /** Python's {@code pattern.sub(template, text)}. */
    static String sub(Pattern pattern, String template, String text) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder();
        int last = 0;
        // Java's find() steps over an empty match as Python 3.7+'s sub does ("x*" on "abxd" gives "-a-b--d-")
        while (m.find()) {
            out.append(text, last, m.start()).append(expand(template, m));
            last = m.end();
        }
        out.append(text, last, text.length());
        return out.toString();
    }

    private static String expand(String template, Matcher m) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c != '\\' || i + 1 == template.length()) {
                out.append(c);
                continue;
            }
            char n = template.charAt(++i);
            if (Character.isDigit(n)) {
                int end = i + 1;
                if (end < template.length() && Character.isDigit(template.charAt(end))) {
                    end++;
                }
                out.append(group(m, template.substring(i, end)));
                i = end - 1;
            } else if (n == 'g' && i + 1 < template.length() && template.charAt(i + 1) == '<') {
                int close = template.indexOf('>', i);
                if (close < 0) {
                    throw new RenderException("missing >, unterminated name in replacement '" + template + "'");
                }
                out.append(group(m, template.substring(i + 2, close)));
                i = close;
            } else {
                out.append(switch (n) {
                    case 'n' -> "\n";
                    case 't' -> "\t";
                    case 'r' -> "\r";
                    case '\\' -> "\\";
                    case 'a' -> "\u0007";
                    case 'f' -> "\f";
                    case 'v' -> "\u000b";
                    case 'b' -> "\b";
                    default -> "\\" + n; // Python keeps an unknown escape of a non-letter as it is
                });
            }
        }
        return out.toString();
    }

    private static String group(Matcher m, String ref) {
        String value;
        try {
            value = ref.chars().allMatch(Character::isDigit) ? m.group(Integer.parseInt(ref)) : m.group(ref);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new RenderException("invalid group reference " + ref);
        }
        return value == null ? "" : value;
    }

    /** Python 3.7+'s {@code re.escape}: a backslash before each of the characters special in patterns. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("()[]{}?*+-|^$\\.&~# \t\n\r\u000b\f".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
