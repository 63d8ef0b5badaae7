package io.jsalt.modules.builtin;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Looks up a nested value by a delimited key such as {@code ip_interfaces:eth0:0}, as Salt's
 * {@code traverse_dict_and_list} does: a map is entered by key; a list by index, or else by the first
 * element that is a map holding the key.
 */
final class GrainPath {

    private GrainPath() {
    }

    static Object get(Map<String, Object> data, String key, String delimiter, Object defaultValue) {
        if (data.containsKey(key)) {
            // a key that itself contains the delimiter wins, as it does in Salt
            return data.get(key);
        }
        Object current = data;
        for (String part : key.split(Pattern.quote(delimiter.isEmpty() ? ":" : delimiter), -1)) {
            if (current instanceof Map<?, ?> map) {
                if (!map.containsKey(part)) {
                    return defaultValue;
                }
                current = map.get(part);
            } else if (current instanceof List<?> list) {
                current = fromList(list, part);
                if (current == MISSING) {
                    return defaultValue;
                }
            } else {
                return defaultValue;
            }
        }
        return current;
    }

    private static final Object MISSING = new Object();

    private static Object fromList(List<?> list, String part) {
        try {
            int index = Integer.parseInt(part);
            return index >= 0 && index < list.size() ? list.get(index) : MISSING;
        } catch (NumberFormatException notAnIndex) {
            for (Object element : list) {
                if (element instanceof Map<?, ?> map && map.containsKey(part)) {
                    return map.get(part);
                }
            }
            return MISSING;
        }
    }
}
