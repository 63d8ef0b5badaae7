package io.jsalt.states.render;

import java.util.Collection;
import java.util.Map;

/** Salt's {@code yaml_dquote}, {@code yaml_squote} and {@code yaml_encode}: PyYAML's scalar quoting, as its emitter writes it. */
final class YamlQuoting {
    private YamlQuoting() {
    }

    /** PyYAML's {@code write_double_quoted} (no unicode allowed: anything past '~' is escaped). */
    static String doubleQuoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(cp -> {
            String named = switch (cp) {
                case 0 -> "0";
                case 0x07 -> "a";
                case 0x08 -> "b";
                case 0x09 -> "t";
                case 0x0A -> "n";
                case 0x0B -> "v";
                case 0x0C -> "f";
                case 0x0D -> "r";
                case 0x1B -> "e";
                case '"' -> "\"";
                case '\\' -> "\\";
                case 0x85 -> "N";
                case 0xA0 -> "_";
                case 0x2028 -> "L";
                case 0x2029 -> "P";
                default -> null;
            };
            if (named != null) {
                out.append('\\').append(named);
            } else if (cp >= ' ' && cp <= '~') {
                out.appendCodePoint(cp);
            } else if (cp <= 0xFF) {
                out.append(String.format("\\x%02X", cp));
            } else if (cp <= 0xFFFF) {
                out.append(String.format("\\u%04X", cp));
            } else {
                out.append(String.format("\\U%08X", cp));
            }
        });
        return out.append('"').toString();
    }

    /** PyYAML's {@code write_single_quoted} of a one-line text: quotes doubled. */
    static String singleQuoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /** Salt's {@code yaml_encode}: a scalar as PyYAML represents it, a text double-quoted. */
    static String encode(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d)) {
                return ".nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? ".inf" : "-.inf";
            }
            return PythonValues.repr(value).toLowerCase();
        }
        if (value instanceof Number) {
            return String.valueOf(value);
        }
        if (value instanceof Collection<?> || value instanceof Map<?, ?>) {
            throw new RenderException("yaml_encode() only works with YAML scalar data; failed for <class '"
                    + PythonValues.typeName(value) + "'>");
        }
        return doubleQuoted(PythonValues.str(value));
    }
}
