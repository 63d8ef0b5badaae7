package io.jsalt.minion.supervisor;

import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Supervisor's expansions in a value, Python's {@code %(name)s} formatting: {@code %(program_name)s},
 * {@code %(process_num)02d}, {@code %(ENV_HOME)s}, {@code %%} for a percent sign.
 */
final class PercentExpansion {
    private static final Pattern FIELD = Pattern.compile("%%|%\\(([A-Za-z_][A-Za-z0-9_]*)\\)([-0 +#]*)([0-9]*)([sd])");

    private PercentExpansion() {
    }

    /**
     * @param names what each name stands for; an unknown name gives null
     * @throws IllegalArgumentException naming the first unknown name, or a {@code d} field whose value is not a number
     */
    static String expand(String text, Function<String, String> names) {
        Matcher m = FIELD.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (m.group().equals("%%")) {
                replacement = "%";
            } else {
                String value = names.apply(m.group(1));
                if (value == null) {
                    throw new IllegalArgumentException("unknown name %(" + m.group(1) + ") in " + text);
                }
                replacement = format(value, m.group(2), m.group(3), m.group(4));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The names Supervisor offers in a program section, and {@code ENV_x} for the minion's environment. */
    static Function<String, String> names(Map<String, String> known, Map<String, String> env) {
        return name -> name.startsWith("ENV_") ? env.get(name.substring(4)) : known.get(name);
    }

    private static String format(String value, String flags, String width, String conversion) {
        if (conversion.equals("d")) {
            long number;
            try {
                number = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("%d of a value that is not a number: " + value);
            }
            String spec = "%" + flags.replace("#", "") + width + "d";
            return String.format(java.util.Locale.ROOT, spec, number);
        }
        return width.isEmpty() ? value : String.format(java.util.Locale.ROOT, "%" + (flags.contains("-") ? "-" : "") + width + "s", value);
    }
}
