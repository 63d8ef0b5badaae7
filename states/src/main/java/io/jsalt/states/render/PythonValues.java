package io.jsalt.states.render;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Python's view of the values templates handle: truth ({@code bool(x)}), {@code repr(x)} and {@code str(x)}, and
 * iteration, for the filters that mirror Salt's Python functions.
 */
final class PythonValues {
    private PythonValues() {
    }

    /** Python's {@code bool(x)}: empty texts, collections and zeros are false. */
    static boolean truthy(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof CharSequence s) {
            return s.length() > 0;
        }
        if (v instanceof Collection<?> c) {
            return !c.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        return true;
    }

    /** Python's {@code str(x)}: a text as it is, anything else as its {@code repr}. */
    static String str(Object v) {
        return v instanceof CharSequence s ? s.toString() : repr(v);
    }

    /** Python's {@code repr(x)} of the values templates hold (texts quoted as Python quotes them). */
    static String repr(Object v) {
        if (v == null) {
            return "None";
        }
        if (v instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (v instanceof CharSequence s) {
            return reprText(s.toString());
        }
        if (v instanceof Double || v instanceof Float) {
            return reprFloat(((Number) v).doubleValue());
        }
        if (v instanceof PyTuple t) {
            String inner = t.stream().map(PythonValues::repr).collect(Collectors.joining(", "));
            return "(" + inner + (t.size() == 1 ? ",)" : ")");
        }
        if (v instanceof List<?> list) {
            return list.stream().map(PythonValues::repr).collect(Collectors.joining(", ", "[", "]"));
        }
        if (v instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> repr(e.getKey()) + ": " + repr(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return String.valueOf(v);
    }

    /** Python's float repr: {@code 2.0}, {@code 0.1}, and {@code 1e+20}, {@code 1.5e-05} outside [1e-4, 1e16). */
    private static String reprFloat(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        double magnitude = Math.abs(d);
        if (d == 0) {
            return 1 / d < 0 ? "-0.0" : "0.0";
        }
        if (magnitude >= 1e-4 && magnitude < 1e16) {
            // Java's shortest digits in plain notation: 2.0E-4 is 0.0002, not 0.00020
            String plain = new BigDecimal(String.valueOf(d)).stripTrailingZeros().toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        String java = String.valueOf(d); // 1.5E-5
        int e = java.indexOf('E');
        String mantissa = java.substring(0, e);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        int exponent = Integer.parseInt(java.substring(e + 1));
        return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }

    /** Python quotes with ' unless the text holds a ' and no ". */
    private static String reprText(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == quote) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append(quote).toString();
    }

    /** The items of a list, set, map (its keys, as Python iterates a dict) or text (its characters). */
    static List<Object> items(Object v) {
        List<Object> out = new ArrayList<>();
        if (v == null) {
            throw new RenderException("'NoneType' object is not iterable");
        }
        if (v instanceof Map<?, ?> map) {
            out.addAll(map.keySet());
        } else if (v instanceof Iterable<?> it) {
            it.forEach(out::add);
        } else if (v instanceof Iterator<?> it) {
            it.forEachRemaining(out::add);
        } else if (v instanceof Object[] array) {
            out.addAll(List.of(array));
        } else if (v instanceof CharSequence s) {
            s.toString().codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
        } else {
            throw new RenderException("'" + typeName(v) + "' object is not iterable");
        }
        return out;
    }

    /** Python's type name of a value, for error messages in Python's words. */
    static String typeName(Object v) {
        if (v == null) {
            return "NoneType";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger) {
            return "int";
        }
        if (v instanceof Number) {
            return "float";
        }
        if (v instanceof CharSequence) {
            return "str";
        }
        if (v instanceof PyTuple) {
            return "tuple";
        }
        if (v instanceof List<?>) {
            return "list";
        }
        if (v instanceof Map<?, ?>) {
            return "dict";
        }
        return v.getClass().getSimpleName();
    }

    /** Python's {@code ==} across Java's number types (1 == 1.0). */
    static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && !(a instanceof Boolean) && !(b instanceof Boolean)) {
            return x.doubleValue() == y.doubleValue();
        }
        return java.util.Objects.equals(a, b);
    }

    /** Python's ordering of two numbers or two texts ({@code min}, {@code max}, {@code sorted}). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof CharSequence && b instanceof CharSequence) {
            return a.toString().compareTo(b.toString());
        }
        if (a instanceof Comparable ca && a.getClass().equals(b == null ? null : b.getClass())) {
            return ca.compareTo(b);
        }
        throw new RenderException("'<' not supported between instances of '" + typeName(a) + "' and '"
                + typeName(b) + "'");
    }
}
