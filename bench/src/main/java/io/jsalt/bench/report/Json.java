package io.jsalt.bench.report;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/** Writes the benchmark's results (maps, lists, strings, numbers, booleans, null) as indented JSON. */
public final class Json {
    private Json() {
    }

    public static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int depth) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Map<?, ?> m) {
            writeEntries(b, m.entrySet().iterator(), depth, '{', '}');
        } else if (v instanceof Collection<?> c) {
            writeEntries(b, c.iterator(), depth, '[', ']');
        } else if (v instanceof double[] d) {
            writeEntries(b, java.util.Arrays.stream(d).boxed().iterator(), depth, '[', ']');
        } else if (v instanceof Double d) {
            b.append(d.isNaN() || d.isInfinite() ? "null" : (d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : d.toString()));
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            string(b, v.toString());
        }
    }

    private static void writeEntries(StringBuilder b, Iterator<?> it, int depth, char open, char close) {
        if (!it.hasNext()) {
            b.append(open).append(close);
            return;
        }
        b.append(open).append('\n');
        while (it.hasNext()) {
            Object e = it.next();
            b.append("  ".repeat(depth + 1));
            if (e instanceof Map.Entry<?, ?> entry) {
                string(b, String.valueOf(entry.getKey()));
                b.append(": ");
                write(b, entry.getValue(), depth + 1);
            } else {
                write(b, e, depth + 1);
            }
            b.append(it.hasNext() ? ",\n" : "\n");
        }
        b.append("  ".repeat(depth)).append(close);
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
