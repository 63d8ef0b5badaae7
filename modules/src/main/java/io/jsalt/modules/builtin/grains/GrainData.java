package io.jsalt.modules.builtin.grains;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Grain values as Python sees them: deep copies that a write may change without touching the minion's grains,
 * Python's equality (an int equals a long of the same value), and Salt's recursive dict update.
 */
public final class GrainData {

    private GrainData() {
    }

    /** A mutable copy of maps and lists, all the way down; other values are immutable and shared. */
    public static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, element) -> copy.put(String.valueOf(key), copy(element)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(element -> copy.add(copy(element)));
            return copy;
        }
        return value;
    }

    /** A mutable deep copy of a map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> copyMap(Map<String, Object> map) {
        return (Map<String, Object>) copy(map);
    }

    /** Python's {@code ==}: numbers by value, maps and lists element by element. */
    public static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && !(a instanceof Boolean) && !(b instanceof Boolean)) {
            boolean integral = !(x instanceof Double || x instanceof Float) && !(y instanceof Double || y instanceof Float);
            return integral ? x.longValue() == y.longValue() : x.doubleValue() == y.doubleValue();
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                if (!y.containsKey(entry.getKey()) || !equal(entry.getValue(), y.get(entry.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!equal(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    /** Python's {@code value in list}. */
    public static boolean contains(List<?> list, Object value) {
        return list.stream().anyMatch(element -> equal(element, value));
    }

    /**
     * Salt's {@code dictupdate.update(dest, upd)}: keys of {@code update} go into {@code dest}; where both hold a
     * dict, the update recurses instead of replacing. Changes and returns {@code dest}.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> update(Map<String, Object> dest, Map<?, ?> update) {
        for (Map.Entry<?, ?> entry : update.entrySet()) {
            String key = String.valueOf(entry.getKey());
            Object current = dest.get(key);
            if (current instanceof Map<?, ?> currentMap && entry.getValue() instanceof Map<?, ?> incoming) {
                Map<String, Object> merged = currentMap instanceof LinkedHashMap<?, ?>
                        ? (Map<String, Object>) currentMap : copyMap((Map<String, Object>) currentMap);
                dest.put(key, update(merged, incoming));
            } else {
                dest.put(key, copy(entry.getValue()));
            }
        }
        return dest;
    }
}
