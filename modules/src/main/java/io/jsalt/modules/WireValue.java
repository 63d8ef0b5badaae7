package io.jsalt.modules;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Converts a module's return value into the few types a minion packs with msgpack, so a module that
 * returns a Set, a Path or an enum cannot break the return channel.
 */
final class WireValue {

    /** Deeper than this is almost surely a cycle; Salt's own serializer would recurse forever. */
    private static final int MAX_DEPTH = 128;

    private WireValue() {
    }

    static Object normalize(Object value) {
        return normalize(value, 0);
    }

    private static Object normalize(Object value, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("return value nests deeper than " + MAX_DEPTH + " levels");
        }
        if (value == null || value instanceof String || value instanceof Boolean
                || value instanceof Long || value instanceof Integer || value instanceof Double) {
            return value;
        }
        if (value instanceof Short || value instanceof Byte) {
            return ((Number) value).intValue();
        }
        if (value instanceof Float || value instanceof BigDecimal) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof BigInteger big) {
            // Salt sends integers too large for msgpack as strings
            return big.bitLength() < 64 ? (Object) big.longValue() : big.toString();
        }
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof CharSequence || value instanceof Character) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (value instanceof Enum<?> constant) {
            return constant.name();
        }
        if (value instanceof Optional<?> optional) {
            return normalize(optional.orElse(null), depth + 1);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(String.valueOf(entry.getKey()), normalize(entry.getValue(), depth + 1));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof Collection<?> collection) {
            List<Object> copy = new ArrayList<>(collection.size());
            for (Object element : collection) {
                copy.add(normalize(element, depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            List<Object> copy = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                copy.add(normalize(Array.get(value, i), depth + 1));
            }
            return Collections.unmodifiableList(copy);
        }
        return value.toString();
    }
}
