package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Values as JSON text, as Python's {@code json.dumps} writes them: ", " and ": " separators (or newlines and
 * {@code indent} spaces, with "," ending a line), keys sorted with {@code sort_keys}, non-ASCII escaped with
 * {@code ensure_ascii}.
 */
final class JsonText {
    private final boolean sortKeys;
    private final boolean ensureAscii;
    private final Integer indent;

    private JsonText(boolean sortKeys, boolean ensureAscii, Integer indent) {
        this.sortKeys = sortKeys;
        this.ensureAscii = ensureAscii;
        this.indent = indent;
    }

    /** Python's defaults: keys in order, text as it is (Salt's {@code ensure_ascii=False}), one line. */
    static String of(Object value) {
        return of(value, false, false, null);
    }

    static String of(Object value, boolean sortKeys, boolean ensureAscii, Integer indent) {
        StringBuilder out = new StringBuilder();
        new JsonText(sortKeys, ensureAscii, indent).write(value, out, 0);
        return out.toString();
    }

    private void write(Object value, StringBuilder out, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof java.math.BigInteger) {
            out.append(value);
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            out.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity")
                    : PythonValues.repr(d));
        } else if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            if (sortKeys) {
                entries.sort((a, b) -> PythonValues.compare(a.getKey(), b.getKey()));
            }
            open('{', out, depth, entries.isEmpty());
            Iterator<Map.Entry<?, ?>> it = entries.iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                string(key(e.getKey()), out);
                out.append(": ");
                write(e.getValue(), out, depth + 1);
                separate(it.hasNext(), out, depth);
            }
            close('}', out, depth, entries.isEmpty());
        } else if (value instanceof Iterable<?> items) {
            Iterator<?> it = items.iterator();
            boolean empty = !it.hasNext();
            open('[', out, depth, empty);
            while (it.hasNext()) {
                write(it.next(), out, depth + 1);
                separate(it.hasNext(), out, depth);
            }
            close(']', out, depth, empty);
        } else {
            string(String.valueOf(value), out);
        }
    }

    /** Python's JSON keys: texts, and numbers, booleans and None written as texts. */
    private static String key(Object k) {
        if (k == null) {
            return "null";
        }
        if (k instanceof Boolean b) {
            return b ? "true" : "false";
        }
        return k instanceof Number ? PythonValues.repr(k) : String.valueOf(k);
    }

    private void open(char c, StringBuilder out, int depth, boolean empty) {
        out.append(c);
        if (indent != null && !empty) {
            out.append('\n').append(" ".repeat(indent * (depth + 1)));
        }
    }

    private void separate(boolean more, StringBuilder out, int depth) {
        if (!more) {
            return;
        }
        if (indent == null) {
            out.append(", ");
        } else {
            out.append(",\n").append(" ".repeat(indent * (depth + 1)));
        }
    }

    private void close(char c, StringBuilder out, int depth, boolean empty) {
        if (indent != null && !empty) {
            out.append('\n').append(" ".repeat(indent * depth));
        }
        out.append(c);
    }

    private void string(String s, StringBuilder out) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || ensureAscii && c > 0x7f) {
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
