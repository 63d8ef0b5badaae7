package io.jsalt.minion.pillar;

import java.util.List;
import java.util.Map;

/**
 * Salt's {@code traverse_dict_and_list}: {@code foo:bar:0} walks maps by key and lists by index, and a word that is
 * not an index looks into the maps inside a list. What is not there gives the default.
 */
final class PillarPath {
    private PillarPath() {
    }

    static Object traverse(Map<String, Object> data, String key, Object dflt, String delimiter) {
        Object ptr = data;
        for (String each : key.split(java.util.regex.Pattern.quote(delimiter), -1)) {
            if (ptr instanceof List<?> list) {
                Object found = inList(list, each);
                if (found == NOT_FOUND) {
                    return dflt;
                }
                ptr = found;
            } else if (ptr instanceof Map<?, ?> map) {
                if (map.containsKey(each)) {
                    ptr = map.get(each);
                } else {
                    Object numeric = numericKey(map, each);
                    if (numeric == NOT_FOUND) {
                        return dflt;
                    }
                    ptr = numeric;
                }
            } else {
                return dflt;
            }
        }
        return ptr;
    }

    private static final Object NOT_FOUND = new Object();

    private static Object inList(List<?> list, String each) {
        Integer idx = index(each);
        for (Object embedded : list) {
            if (embedded instanceof Map<?, ?> m) {
                if (idx == null && m.containsKey(each)) {
                    return m.get(each);
                }
                if (idx != null && m.containsKey(idx.longValue())) {
                    return m.get(idx.longValue());
                }
            }
        }
        if (idx == null) {
            return NOT_FOUND;
        }
        int at = idx < 0 ? list.size() + idx : idx; // Python's negative indexes
        return at >= 0 && at < list.size() ? list.get(at) : NOT_FOUND;
    }

    /** Salt YAML-loads a key that is not found, so "1" finds a map's integer key 1. */
    private static Object numericKey(Map<?, ?> map, String each) {
        Integer idx = index(each);
        if (idx != null && map.containsKey(idx.longValue())) {
            return map.get(idx.longValue());
        }
        if (idx != null && map.containsKey(idx)) {
            return map.get(idx);
        }
        return NOT_FOUND;
    }

    private static Integer index(String each) {
        try {
            return Integer.valueOf(each.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
