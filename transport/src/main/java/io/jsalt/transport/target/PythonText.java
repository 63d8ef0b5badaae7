package io.jsalt.transport.target;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code str()} of a decoded wire value. Salt matches grain values as their string form
 * ({@code True}, {@code None}, {@code 1.0}, {@code ['a', 'b']}), so a minion and a master agree on
 * what "G@virtual:False" or "G@num_cpus:4" means only if both spell values the same way.
 */
final class PythonText {
    /** Deeper containers are cut short: grains come from minions and need not be well-behaved. */
    private static final int MAX_DEPTH = 32;

    private PythonText() {}

    static String str(Object value) {
        if (value instanceof String s) {
            return s;
        }
        StringBuilder out = new StringBuilder();
        repr(value, out, 0);
        return out.toString();
    }

    private static void repr(Object value, StringBuilder out, int depth) {
        if (value == null) {
            out.append("None");
        } else if (value instanceof Boolean b) {
            out.append(b ? "True" : "False");
        } else if (value instanceof String s) {
            quote(s, out);
        } else if (value instanceof Double || value instanceof Float) {
            out.append(floatRepr(((Number) value).doubleValue()));
        } else if (value instanceof Number n) {
            out.append(n instanceof BigDecimal d ? d.toPlainString() : n.toString());
        } else if (value instanceof byte[] bytes) {
            bytesRepr(bytes, out);
        } else if (value instanceof List<?> list) {
            container(list.iterator(), "[", "]", out, depth, false);
        } else if (value instanceof Map<?, ?> map) {
            container(map.entrySet().iterator(), "{", "}", out, depth, true);
        } else {
            out.append(value);
        }
    }

    private static void container(Iterator<?> items, String open, String close, StringBuilder out, int depth, boolean entries) {
        if (depth >= MAX_DEPTH) {
            out.append(open).append("...").append(close);
            return;
        }
        out.append(open);
        boolean first = true;
        while (items.hasNext()) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            Object item = items.next();
            if (entries) {
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) item;
                repr(e.getKey(), out, depth + 1);
                out.append(": ");
                repr(e.getValue(), out, depth + 1);
            } else {
                repr(item, out, depth + 1);
            }
        }
        out.append(close);
    }

    /** Python's repr of a str: single quotes unless the text holds one and no double quote. */
    private static void quote(String s, StringBuilder out) {
        char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        out.append(q);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == q) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append(q);
    }

    private static void bytesRepr(byte[] bytes, StringBuilder out) {
        out.append("b'");
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c == '\\' || c == '\'') {
                out.append('\\').append((char) c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x20 || c >= 0x7f) {
                out.append(String.format("\\x%02x", c));
            } else {
                out.append((char) c);
            }
        }
        out.append('\'');
    }

    /** Python's repr of a float: shortest digits, positional for exponents -4..15, else d.ddde+XX. */
    static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        BigInteger unscaled = exact.unscaledValue().abs();
        String digits = unscaled.toString();
        int exponent = digits.length() - exact.scale() - 1;
        String sign = exact.signum() < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 16) {
            String plain = exact.abs().toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String exp = String.format("%02d", Math.abs(exponent));
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
    }
}
