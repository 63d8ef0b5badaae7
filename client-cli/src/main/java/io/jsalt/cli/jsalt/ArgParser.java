package io.jsalt.cli.jsalt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Turns command-line words into Salt's {@code arg} list, as salt.utils.args.parse_input does:
 * {@code key=value} words become one trailing map with {@code "__kwarg__": true}, and values are typed as Salt's yamlify_arg
 * does ({@code 1} is an int; {@code "'1'"}, quoted for the shell and for YAML, is the text 1).
 */
public final class ArgParser {
    /** Salt's kw_re: a key starts with a non-digit word character. */
    private static final Pattern KWARG = Pattern.compile("^([^\\d\\W][\\w.-]*)=(?!=)(.*)$", Pattern.UNICODE_CHARACTER_CLASS | Pattern.DOTALL);

    private static final Pattern YAML11_BOOLEAN = Pattern.compile("yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF");

    private static final Pattern NULL_LITERAL = Pattern.compile("null|Null|NULL|~");

    private ArgParser() {}

    public static List<Object> parse(List<String> words) {
        List<Object> args = new ArrayList<>();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        for (String w : words) {
            Matcher m = KWARG.matcher(w);
            if (m.matches()) {
                kwargs.put(m.group(1), yamlify(m.group(2)));
            } else {
                args.add(yamlify(w));
            }
        }
        if (!kwargs.isEmpty()) {
            Map<String, Object> kw = new LinkedHashMap<>();
            kw.put("__kwarg__", true);
            kw.putAll(kwargs);
            args.add(kw);
        }
        return args;
    }

    /**
     * Salt's yamlify_arg (3006): the word as YAML when that gives a number, boolean, null or text (so
     * {@code "'1'"} sends the text 1), a map only when written in braces, a list only in brackets; the
     * word itself in every other case.
     */
    static Object yamlify(String word) {
        String trimmed = word.strip();
        if (trimmed.isEmpty() || trimmed.equals("---") || trimmed.equals("...")
                || (word.contains("_") && trimmed.chars().allMatch(c -> c == '_' || Character.isDigit(c)))
                || word.contains("\t") || word.contains("\r") || word.contains("\n")) {
            return word;
        }
        if (word.equals("None")) {
            return null;
        }
        Object v;
        try {
            v = load(word);
        } catch (YamlEngineException e) {
            return word;
        }
        if (word.contains("#")) {
            return v == null || v instanceof String ? word : v; // '#' would start a comment: keep the text
        }
        if (v instanceof Map) {
            return word.startsWith("{") ? v : word;
        }
        if (v instanceof List) {
            return word.startsWith("[") ? v : word;
        }
        if (v == null) {
            // only a null literal is None; Salt would also turn "&x" or "!" alone into None, which surprises
            return NULL_LITERAL.matcher(word).matches() ? null : word;
        }
        if (v instanceof String s) {
            return s.isEmpty() && (word.equals("|") || word.equals("!")) ? word : s;
        }
        if (v instanceof Integer i) {
            return i.longValue();
        }
        return v instanceof Number || v instanceof Boolean ? v : word;
    }

    /** YAML 1.2's core schema, plus the YAML 1.1 booleans Salt's PyYAML reads (yes/no/on/off). */
    private static Object load(String word) {
        if (YAML11_BOOLEAN.matcher(word).matches()) {
            return word.equalsIgnoreCase("yes") || word.equalsIgnoreCase("on");
        }
        return new Load(LoadSettings.builder().setSchema(new CoreSchema()).build()).loadFromString(word);
    }
}
