package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * A replacement string in Python's {@code re.sub} syntax: {@code \1} and {@code \g<1>} or
 * {@code \g<name>} refer to groups, {@code \n} and {@code \t} are control characters, {@code \\} is a
 * backslash. Java's {@code $1} means nothing here, so a {@code $} in Salt states stays a dollar sign.
 */
public final class ReplacementTemplate {

    /** A piece of the template: literal text, or a group reference when {@code group} is not null. */
    private record Part(String text, String group) {
    }

    private final List<Part> parts;

    private ReplacementTemplate(List<Part> parts) {
        this.parts = parts;
    }

    /** Parses {@code repl}; with {@code literal} (Salt's backslash_literal) it is taken as is. */
    public static ReplacementTemplate parse(String repl, boolean literal) {
        List<Part> parts = new ArrayList<>();
        if (literal) {
            parts.add(new Part(repl, null));
            return new ReplacementTemplate(parts);
        }
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < repl.length()) {
            char c = repl.charAt(i);
            if (c != '\\' || i + 1 == repl.length()) {
                text.append(c);
                i++;
                continue;
            }
            char next = repl.charAt(i + 1);
            String group = null;
            int end = i + 2;
            if (Character.isDigit(next)) {
                // Python reads up to two digits of a group number
                end = i + 2 < repl.length() && Character.isDigit(repl.charAt(i + 2)) ? i + 3 : i + 2;
                group = repl.substring(i + 1, end);
            } else if (next == 'g' && i + 2 < repl.length() && repl.charAt(i + 2) == '<') {
                int close = repl.indexOf('>', i + 3);
                if (close < 0) {
                    throw new CommandExecutionException("Invalid replacement: unterminated \\g< in '" + repl + "'");
                }
                group = repl.substring(i + 3, close);
                end = close + 1;
            } else {
                text.append(switch (next) {
                    case 'n' -> "\n";
                    case 't' -> "\t";
                    case 'r' -> "\r";
                    case 'f' -> "\f";
                    case 'v' -> "\u000b";
                    case 'a' -> "\u0007";
                    case '\\' -> "\\";
                    default -> "\\" + next;
                });
            }
            if (group != null) {
                parts.add(new Part(text.toString(), null));
                text.setLength(0);
                parts.add(new Part(null, group));
            }
            i = end;
        }
        parts.add(new Part(text.toString(), null));
        return new ReplacementTemplate(parts);
    }

    /** The replacement for the current match. */
    public String expand(Matcher match) {
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            if (part.group() == null) {
                out.append(part.text());
                continue;
            }
            String value;
            try {
                value = part.group().chars().allMatch(Character::isDigit)
                        ? match.group(Integer.parseInt(part.group())) : match.group(part.group());
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                throw new CommandExecutionException("Invalid replacement: no group " + part.group() + " in the pattern");
            }
            // Python substitutes an empty string for a group that did not take part in the match
            out.append(value == null ? "" : value);
        }
        return out.toString();
    }
}
