package io.jsalt.states.builtin.file;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The content {@code file.managed} writes when it is not a source: {@code contents} itself, or a value of the
 * minion's pillar ({@code contents_pillar}) or grains ({@code contents_grains}) found by a {@code :}-path (Salt's
 * {@code pillar.get} / {@code grains.get} with {@code contents_delimiter}); a list of paths gives their values joined
 * by new lines.
 */
final class ContentsLookup {
    private ContentsLookup() {
    }

    /** @return the contents to write, or null when the state names none */
    static Object contents(StateCall call) {
        Object value;
        String id;
        if (call.args().get("contents_pillar") != null) {
            value = lookup(call, call.args().get("contents_pillar"), call.context().pillar(), "Pillar");
            id = "contents_pillar " + call.args().get("contents_pillar");
        } else if (call.args().get("contents_grains") != null) {
            value = lookup(call, call.args().get("contents_grains"), call.context().grains(), "Grain");
            id = "contents_grains " + call.args().get("contents_grains");
        } else {
            value = call.args().get("contents");
            id = "'contents'";
        }
        if (value != null && !call.flag("allow_empty", true) && isEmpty(value)) {
            throw new StatesException(id + " value would result in empty contents. Set allow_empty to True to allow "
                    + "the managed file to be empty.");
        }
        return value;
    }

    private static Object lookup(StateCall call, Object paths, Map<String, Object> data, String what) {
        String delimiter = call.args().get("contents_delimiter") == null ? ":" : call.string("contents_delimiter");
        if (paths instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object path : list) {
                Object part = found(get(data, String.valueOf(path), delimiter), what, path);
                if (!(part instanceof String text)) {
                    // Salt joins the values with os.linesep.join, which raises for anything but text
                    throw new StatesException("An exception occurred in this state: TypeError: sequence item "
                            + parts.size() + ": expected str instance, " + pythonType(part) + " found");
                }
                parts.add(text);
            }
            return String.join("\n", parts);
        }
        return found(get(data, String.valueOf(paths), delimiter), what, paths);
    }

    /** The value found; a path that leads to a None is found (Salt then writes an empty file), a missing one is not. */
    private static Object found(Optional<Optional<Object>> value, String what, Object path) {
        return value.orElseThrow(() -> new StatesException(what + " " + path + " does not exist")).orElse(null);
    }

    /** Salt's traverse_dict_and_list: keys of dictionaries, indexes of lists; empty when the path leads nowhere. */
    static Optional<Optional<Object>> get(Map<String, Object> data, String path, String delimiter) {
        Object node = data;
        for (String key : path.split(java.util.regex.Pattern.quote(delimiter), -1)) {
            if (node instanceof Map<?, ?> map && map.containsKey(key)) {
                node = map.get(key);
            } else if (node instanceof List<?> list && key.matches("\\d+") && Integer.parseInt(key) < list.size()) {
                node = list.get(Integer.parseInt(key));
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(Optional.ofNullable(node));
    }

    private static String pythonType(Object value) {
        return value instanceof Boolean ? "bool" : value instanceof Integer || value instanceof Long ? "int"
                : value instanceof Number ? "float" : value instanceof Map ? "dict" : value instanceof List ? "list"
                : value == null ? "NoneType" : "str";
    }

    private static boolean isEmpty(Object value) {
        return value instanceof String s ? s.isEmpty() : value instanceof List<?> l ? l.isEmpty()
                : value instanceof Map<?, ?> m && m.isEmpty();
    }
}
