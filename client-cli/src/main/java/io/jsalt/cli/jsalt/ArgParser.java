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

/**
 * Turns command-line words into Salt's {@code arg} list, as salt.utils.args.parse_input does:
 * {@code key=value} words become one trailing map with {@code "__kwarg__": true}, and values that read
 * as YAML numbers, booleans, null, lists or maps are typed ({@code 1} is an int, {@code "1"} stays text
 * only when quoted for the shell twice).
 */
public final class ArgParser {
    /** Salt's kw_re: a key starts with a non-digit word character. */
    private static final Pattern KWARG = Pattern.compile("^([^\\d\\W][\\w.-]*)=(?!=)(.*)$", Pattern.UNICODE_CHARACTER_CLASS | Pattern.DOTALL);

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

    /** Salt's yamlify_arg, simplified: typed when YAML reads a scalar or collection, else the text. */
    static Object yamlify(String word) {
        if (word.isEmpty() || word.contains("#") || word.contains("\n") || word.startsWith("*") || word.startsWith("&")
                || word.startsWith("!") || word.startsWith("%") || word.startsWith("@") || word.startsWith("`")) {
            return word;
        }
        try {
            Object v = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(word);
            if (v == null) {
                return word.equals("null") || word.equals("~") || word.equals("None") ? null : word;
            }
            if (v instanceof String) {
                return word; // keep the word exactly, quotes and all, as Salt does for plain text
            }
            if (v instanceof Integer i) {
                return i.longValue();
            }
            if (v instanceof Number || v instanceof Boolean || v instanceof List || v instanceof Map) {
                return v;
            }
            return word;
        } catch (YamlEngineException e) {
            return word;
        }
    }
}
