package io.jsalt.modules.binding;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A positional string of the form {@code name=value}, which Salt's minion treats as a keyword
 * argument ({@code salt.utils.args.parse_kwarg}); the value is read as a YAML scalar, as Salt's
 * {@code yamlify_arg} does.
 *
 * @param name  the keyword
 * @param value the value: null, Boolean, Long, Double or String
 */
public record KeywordString(String name, Object value) {

    // Salt's KWARG_REGEX: an identifier-ish name, '=', and not '=='
    private static final Pattern KWARG = Pattern.compile("^([^\\d\\W][\\w.-]*)=(?!=)(.*)$", Pattern.DOTALL);
    private static final Pattern INTEGER = Pattern.compile("[-+]?(0|[1-9][0-9]*)");
    private static final Set<String> NULLS = Set.of("null", "Null", "NULL", "~");
    private static final Set<String> TRUES = Set.of("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON");
    private static final Set<String> FALSES = Set.of("false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF");
    private static final Pattern FLOAT = Pattern.compile("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");

    public static Optional<KeywordString> parse(String text) {
        Matcher matcher = KWARG.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        return Optional.of(new KeywordString(matcher.group(1), scalar(matcher.group(2))));
    }

    /** The YAML 1.1 reading of a plain scalar (PyYAML's resolver), limited to what a command line can mean. */
    static Object scalar(String text) {
        String word = text.strip();
        if (NULLS.contains(word)) {
            return null;
        }
        if (TRUES.contains(word)) {
            return Boolean.TRUE;
        }
        if (FALSES.contains(word)) {
            return Boolean.FALSE;
        }
        if (INTEGER.matcher(word).matches()) {
            try {
                return Long.parseLong(word);
            } catch (NumberFormatException tooBig) {
                return text;
            }
        }
        if (FLOAT.matcher(word).matches()) {
            return Double.parseDouble(word);
        }
        return text;
    }
}
