package io.jsalt.states.builtin;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Python's {@code str()} of a value, for comments that Salt builds with {@code "{}".format(value)}. */
final class PythonText {
    private PythonText() {
    }

    static String of(Object value) {
        return value instanceof String s ? s : repr(value);
    }

    private static String repr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String s) {
            return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        if (value instanceof List<?> list) {
            return list.stream().map(PythonText::repr).collect(Collectors.joining(", ", "[", "]"));
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> repr(e.getKey()) + ": " + repr(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return String.valueOf(value);
    }
}
