package io.jsalt.states.render;

import java.util.Iterator;
import java.util.Map;

/** Values as JSON text, as Python's {@code json.dumps} writes them (", " and ": " separators). */
final class JsonText {
    private JsonText() {
    }

    static String of(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean || value instanceof Number) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                string(String.valueOf(e.getKey()), out);
                out.append(": ");
                write(e.getValue(), out);
                if (it.hasNext()) {
                    out.append(", ");
                }
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            Iterator<?> it = items.iterator();
            while (it.hasNext()) {
                write(it.next(), out);
                if (it.hasNext()) {
                    out.append(", ");
                }
            }
            out.append(']');
        } else {
            string(String.valueOf(value), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
