package io.jsalt.cli.output;

import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/** A small JSON writer for decoded msgpack values (maps, lists, text, numbers, booleans, null, bytes). */
public final class Json {
    private Json() {}

    public static String write(Object value, int indent) {
        StringBuilder sb = new StringBuilder();
        write(value, indent, 0, sb);
        return sb.toString();
    }

    private static void write(Object v, int indent, int depth, StringBuilder sb) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof java.math.BigInteger) {
            sb.append(v);
        } else if (v instanceof Double d) {
            sb.append(d.isNaN() || d.isInfinite() ? "null" : d.toString());
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof Map<?, ?> m) {
            container(sb, '{', '}', m.entrySet(), indent, depth, (e, b) -> {
                string(String.valueOf(e.getKey()), b);
                b.append(indent > 0 ? ": " : ":");
                write(e.getValue(), indent, depth + 1, b);
            });
        } else if (v instanceof Collection<?> c) {
            container(sb, '[', ']', c, indent, depth, (e, b) -> write(e, indent, depth + 1, b));
        } else if (v instanceof byte[] bytes) {
            string(Base64.getEncoder().encodeToString(bytes), sb);
        } else {
            string(v.toString(), sb);
        }
    }

    private interface ItemWriter<T> {
        void write(T item, StringBuilder sb);
    }

    private static <T> void container(StringBuilder sb, char open, char close, Collection<T> items, int indent, int depth, ItemWriter<T> w) {
        sb.append(open);
        if (items.isEmpty()) {
            sb.append(close);
            return;
        }
        boolean first = true;
        for (T item : items) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            newline(sb, indent, depth + 1);
            w.write(item, sb);
        }
        newline(sb, indent, depth);
        sb.append(close);
    }

    private static void newline(StringBuilder sb, int indent, int depth) {
        if (indent > 0) {
            sb.append('\n').append(" ".repeat(indent * depth));
        }
    }

    private static void string(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
