package io.jsalt.modules.binding;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a wire value (String, Long, Double, Boolean, List, Map, null) into the type a parameter
 * declares. Salt's CLI has already YAML-parsed each argument, but API callers and
 * {@code key=value} strings still send text, so text is accepted for every scalar type.
 */
public final class ValueCoercion {

    private static final Set<Class<?>> SUPPORTED = Set.of(
            String.class, Object.class, List.class, Map.class,
            int.class, Integer.class, long.class, Long.class,
            double.class, Double.class, boolean.class, Boolean.class);

    // YAML 1.1 truthiness, which Salt's argument parsing follows
    private static final Set<String> TRUE_WORDS = Set.of("true", "yes", "on", "1");
    private static final Set<String> FALSE_WORDS = Set.of("false", "no", "off", "0");

    private ValueCoercion() {
    }

    /** Whether a parameter of this type can be bound from the wire. */
    public static boolean supports(Class<?> type) {
        return SUPPORTED.contains(type);
    }

    /**
     * Coerces {@code value} for the argument {@code argName} of type {@code type}.
     *
     * @throws InvalidArgumentsException naming the argument, the expected kind and the value
     */
    public static Object coerce(Object value, Class<?> type, String argName) throws InvalidArgumentsException {
        if (value instanceof byte[] bytes) {
            // a decoder that kept a non-UTF-8 raw string; text is what every caller meant
            value = new String(bytes, StandardCharsets.UTF_8);
        }
        if (value == null) {
            if (type.isPrimitive()) {
                throw mismatch(argName, type, null);
            }
            return null;
        }
        if (type == Object.class) {
            return value;
        }
        if (type == String.class) {
            return toText(value, argName);
        }
        if (type == int.class || type == Integer.class) {
            long number = toLong(value, type, argName);
            if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw new InvalidArgumentsException("argument '" + argName + "' is out of range: " + number);
            }
            return (int) number;
        }
        if (type == long.class || type == Long.class) {
            return toLong(value, type, argName);
        }
        if (type == double.class || type == Double.class) {
            return toDouble(value, type, argName);
        }
        if (type == boolean.class || type == Boolean.class) {
            return toBoolean(value, type, argName);
        }
        if (type == List.class) {
            return toList(value);
        }
        if (type == Map.class) {
            if (value instanceof Map<?, ?> map) {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(String.valueOf(k), v));
                return copy;
            }
            throw mismatch(argName, type, value);
        }
        throw new IllegalArgumentException("unsupported parameter type " + type.getName());
    }

    private static String toText(Object value, String argName) throws InvalidArgumentsException {
        if (value instanceof String text) {
            return text;
        }
        if (value instanceof Number || value instanceof Boolean) {
            // lower-case booleans: `cmd.run true` arrives as Boolean.TRUE and means /bin/true
            return String.valueOf(value);
        }
        throw mismatch(argName, String.class, value);
    }

    private static long toLong(Object value, Class<?> type, String argName) throws InvalidArgumentsException {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number number) {
            double d = number.doubleValue();
            if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 0x1p63) {
                return (long) d;
            }
            throw mismatch(argName, type, value);
        }
        if (value instanceof String text) {
            try {
                return Long.parseLong(text.strip());
            } catch (NumberFormatException e) {
                throw mismatch(argName, type, value);
            }
        }
        throw mismatch(argName, type, value);
    }

    private static double toDouble(Object value, Class<?> type, String argName) throws InvalidArgumentsException {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof String text) {
            try {
                double d = Double.parseDouble(text.strip());
                if (Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw mismatch(argName, type, value);
    }

    private static boolean toBoolean(Object value, Class<?> type, String argName) throws InvalidArgumentsException {
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof Long || value instanceof Integer) {
            return ((Number) value).longValue() != 0;
        }
        if (value instanceof String text) {
            String word = text.strip().toLowerCase(Locale.ROOT);
            if (TRUE_WORDS.contains(word)) {
                return true;
            }
            if (FALSE_WORDS.contains(word)) {
                return false;
            }
        }
        throw mismatch(argName, type, value);
    }

    private static List<Object> toList(Object value) {
        if (value instanceof Collection<?> collection) {
            return new ArrayList<>(collection);
        }
        if (value instanceof String text) {
            // Salt's split_input: a comma-separated string stands for a list
            List<Object> parts = new ArrayList<>();
            for (String part : text.split(",")) {
                if (!part.isBlank()) {
                    parts.add(part.strip());
                }
            }
            return parts;
        }
        List<Object> single = new ArrayList<>(1);
        single.add(value);
        return single;
    }

    private static InvalidArgumentsException mismatch(String argName, Class<?> type, Object value) {
        return new InvalidArgumentsException("argument '" + argName + "' expects " + describe(type)
                + ", got " + show(value));
    }

    static String describe(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "an integer";
        }
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "a boolean (true/false, yes/no, on/off, 1/0)";
        }
        if (type == List.class) {
            return "a list";
        }
        if (type == Map.class) {
            return "a map";
        }
        return "a value";
    }

    /** A short rendering of a value for error messages; long values are cut. */
    static String show(Object value) {
        if (value == null) {
            return "None";
        }
        String text = value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    /** An unmodifiable view for defaults, which every call shares. */
    static Object freeze(Object value) {
        if (value instanceof List<?> list) {
            return Collections.unmodifiableList(list);
        }
        if (value instanceof Map<?, ?> map) {
            return Collections.unmodifiableMap(map);
        }
        return value;
    }
}
