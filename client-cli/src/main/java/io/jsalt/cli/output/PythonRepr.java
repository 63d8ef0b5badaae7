package io.jsalt.cli.output;

import java.util.Collection;
import java.util.Map;

/** Python's repr of decoded values ({'a': [1, True, None]}), which Salt's raw and txt outputters print. */
final class PythonRepr {
    private PythonRepr() {}

    static String of(Object v) {
        StringBuilder sb = new StringBuilder();
        write(v, sb);
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("None");
        } else if (v instanceof Boolean b) {
            sb.append(b ? "True" : "False");
        } else if (v instanceof Double || v instanceof Float) {
            sb.append(PythonFloat.repr(((Number) v).doubleValue()));
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ", ");
                write(e.getKey(), sb);
                sb.append(": ");
                write(e.getValue(), sb);
                first = false;
            }
            sb.append('}');
        } else if (v instanceof Collection<?> c) {
            sb.append('[');
            boolean first = true;
            for (Object o : c) {
                sb.append(first ? "" : ", ");
                write(o, sb);
                first = false;
            }
            sb.append(']');
        } else if (v instanceof byte[] bytes) {
            sb.append("b'<").append(bytes.length).append(" bytes>'");
        } else {
            string(v.toString(), sb);
        }
    }

    private static void string(String s, StringBuilder sb) {
        char quote = s.contains("'") && !s.contains("\"") ? '"' : '\'';
        sb.append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c == quote) {
                        sb.append('\\');
                    }
                    sb.append(c);
                }
            }
        }
        sb.append(quote);
    }
}
