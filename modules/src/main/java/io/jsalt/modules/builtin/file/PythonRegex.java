package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Compiles the regular expressions Salt's {@code file.replace} and {@code file.search} take: Python's
 * syntax (the {@code (?P<name>...)} groups Java spells {@code (?<name>...)}) and Python's {@code re}
 * flags, as an int (Salt's default 8 is {@code re.MULTILINE}) or a list of names.
 */
public final class PythonRegex {

    // Python's re flag values
    private static final int IGNORECASE = 2;
    private static final int LOCALE = 4;
    private static final int MULTILINE = 8;
    private static final int DOTALL = 16;
    private static final int UNICODE = 32;
    private static final int VERBOSE = 64;

    private PythonRegex() {
    }

    /** Compiles {@code pattern} with Python's {@code flags}. */
    public static Pattern compile(String pattern, Object flags) {
        if (pattern == null) {
            throw new CommandExecutionException("pattern is required");
        }
        String java = pattern.replaceAll("\\(\\?P<", "(?<").replaceAll("\\(\\?P=(\\w+)\\)", "\\\\k<$1>");
        try {
            return Pattern.compile(java, javaFlags(pythonFlags(flags)));
        } catch (PatternSyntaxException e) {
            throw new CommandExecutionException("Invalid regular expression '" + pattern + "': "
                    + e.getDescription());
        }
    }

    /** Python's flag bits from an int, a digit string, a flag name or a list of flag names. */
    static int pythonFlags(Object flags) {
        if (flags == null) {
            return 0;
        }
        if (flags instanceof Number number) {
            return number.intValue();
        }
        if (flags instanceof List<?> names) {
            int bits = 0;
            for (Object name : names) {
                bits |= pythonFlags(name);
            }
            return bits;
        }
        String text = String.valueOf(flags).strip();
        if (text.matches("\\d+")) {
            return Integer.parseInt(text);
        }
        return switch (text.toUpperCase(Locale.ROOT)) {
            case "I", "IGNORECASE" -> IGNORECASE;
            case "L", "LOCALE" -> LOCALE;
            case "M", "MULTILINE" -> MULTILINE;
            case "S", "DOTALL" -> DOTALL;
            case "U", "UNICODE" -> UNICODE;
            case "X", "VERBOSE" -> VERBOSE;
            default -> throw new CommandExecutionException("Invalid regex flag '" + text
                    + "': expected IGNORECASE, MULTILINE, DOTALL, UNICODE, VERBOSE, LOCALE or their int value");
        };
    }

    private static int javaFlags(int python) {
        int java = 0;
        if ((python & IGNORECASE) != 0) {
            java |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        }
        if ((python & MULTILINE) != 0) {
            java |= Pattern.MULTILINE;
        }
        if ((python & DOTALL) != 0) {
            java |= Pattern.DOTALL;
        }
        if ((python & VERBOSE) != 0) {
            java |= Pattern.COMMENTS;
        }
        return java;
    }
}
