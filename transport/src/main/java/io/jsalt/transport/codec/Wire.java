package io.jsalt.transport.codec;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Typed reads from decoded msgpack, so that no caller casts a peer's value blindly. Every accessor
 * throws {@link WireException} naming the field when it is missing or of the wrong type; the message
 * never contains the value itself, which may be secret.
 *
 * <p>Where Salt sends a byte string, the decoder may hand over a {@code String} (it was valid UTF-8) or
 * a {@code byte[]}; {@link #bytes} accepts both. That is lossless: only valid UTF-8 becomes text, and
 * its UTF-8 encoding gives back the exact bytes.
 */
public final class Wire {

    private Wire() {
    }

    /** A decoded map whose keys are all strings, as every Salt message and load is. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new WireException("expected a map, got " + typeName(value));
        }
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                throw new WireException("expected a map with string keys, found a key of type " + typeName(key));
            }
        }
        return (Map<String, Object>) map;
    }

    public static String string(Map<String, ?> m, String key) {
        Object value = require(m, key);
        if (value instanceof String text) {
            return text;
        }
        throw wrongType(key, "a string", value);
    }

    /** The string at {@code key}, or {@code dflt} when it is missing or null. */
    public static String optString(Map<String, ?> m, String key, String dflt) {
        Object value = m.get(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof String text) {
            return text;
        }
        throw wrongType(key, "a string", value);
    }

    /** A byte string sent in either msgpack family: bytes as they are, text as its UTF-8 encoding. */
    public static byte[] bytes(Map<String, ?> m, String key) {
        Object value = require(m, key);
        byte[] bytes = bytesOrNull(value);
        if (bytes == null) {
            throw wrongType(key, "bytes or a string", value);
        }
        return bytes;
    }

    /** Like {@link #bytes}, but null when the field is missing or null (Salt's optional {@code token}, {@code sig}). */
    public static byte[] optBytes(Map<String, ?> m, String key) {
        Object value = m.get(key);
        if (value == null) {
            return null;
        }
        byte[] bytes = bytesOrNull(value);
        if (bytes == null) {
            throw wrongType(key, "bytes or a string", value);
        }
        return bytes;
    }

    /** A whole decoded value read as a byte string (for example the reply to an {@code aes} request). */
    public static byte[] asBytes(Object value) {
        byte[] bytes = bytesOrNull(value);
        if (bytes == null) {
            throw new WireException("expected bytes or a string, got " + typeName(value));
        }
        return bytes;
    }

    public static Map<String, Object> map(Map<String, ?> m, String key) {
        Object value = require(m, key);
        if (!(value instanceof Map<?, ?>)) {
            throw wrongType(key, "a map", value);
        }
        try {
            return asMap(value);
        } catch (WireException e) {
            throw new WireException("field '" + key + "': " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Map<String, ?> m, String key) {
        Object value = require(m, key);
        if (value instanceof List<?> list) {
            return (List<Object>) list;
        }
        throw wrongType(key, "a list", value);
    }

    /** The list at {@code key}, or an empty list when it is missing or null. */
    public static List<Object> optList(Map<String, ?> m, String key) {
        return m.get(key) == null ? List.of() : list(m, key);
    }

    public static long longValue(Map<String, ?> m, String key) {
        Object value = require(m, key);
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big && big.bitLength() < Long.SIZE) {
            return big.longValue();
        }
        throw wrongType(key, "an integer within the range of a long", value);
    }

    /** A flag; Python code sometimes sends 0/1 where it means False/True, so those are accepted too. */
    public static boolean bool(Map<String, ?> m, String key, boolean dflt) {
        Object value = m.get(key);
        if (value == null) {
            return dflt;
        }
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof Long number && (number == 0L || number == 1L)) {
            return number == 1L;
        }
        throw wrongType(key, "a boolean", value);
    }

    private static Object require(Map<String, ?> m, String key) {
        Object value = m.get(key);
        if (value == null) {
            throw new WireException(m.containsKey(key) ? "field '" + key + "' is null" : "field '" + key + "' is missing");
        }
        return value;
    }

    private static byte[] bytesOrNull(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        return null;
    }

    private static WireException wrongType(String key, String expected, Object actual) {
        return new WireException("field '" + key + "' should be " + expected + ", got " + typeName(actual));
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
