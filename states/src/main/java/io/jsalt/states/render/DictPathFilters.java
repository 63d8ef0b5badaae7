package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's filters that walk a {@code a:b:c} path into nested dicts and lists: {@code traverse}
 * ({@code traverse_dict_and_list}) and {@code set_dict_key_value}, {@code update_dict_key_value},
 * {@code append_dict_key_value}, {@code extend_dict_key_value} (salt/utils/dictupdate.py). Salt changes the dict in
 * place and returns it; so does jsalt when the dict can change (a template's own), else it returns a changed copy
 * (the minion's grains and pillar are not to be changed by a template).
 */
final class DictPathFilters {
    private DictPathFilters() {
    }

    private interface Edit {
        void apply(Map<Object, Object> parent, String last, Object value);
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("traverse", (value, args) -> traverse(value, PythonValues.str(args.required(0, "key")),
                        args.get(1, "default", null), args.text(2, "delimiter", ":"))),
                new SaltFilter("set_dict_key_value", (value, args) -> edit(value, args, (p, k, v) -> p.put(k, v))),
                new SaltFilter("update_dict_key_value", (value, args) -> edit(value, args, (p, k, v) -> {
                    Object target = p.get(k) == null ? new LinkedHashMap<>() : p.get(k);
                    if (!(target instanceof Map<?, ?> m)) {
                        throw new RenderException("The last key contains a <class '" + PythonValues.typeName(target)
                                + "'>, which cannot update.");
                    }
                    Map<Object, Object> updated = new LinkedHashMap<>(m);
                    updated.putAll(ListFilters.map(v));
                    p.put(k, updated);
                })),
                new SaltFilter("append_dict_key_value", (value, args) -> edit(value, args, (p, k, v) -> {
                    List<Object> list = listAt(p, k, "append");
                    list.add(v);
                    p.put(k, list);
                })),
                new SaltFilter("extend_dict_key_value", (value, args) -> edit(value, args, (p, k, v) -> {
                    List<Object> list = listAt(p, k, "extend");
                    list.addAll(PythonValues.items(v));
                    p.put(k, list);
                })));
    }

    /** Salt's {@code traverse_dict_and_list}: dict keys and list indexes along the path, else the default. */
    static Object traverse(Object data, String key, Object fallback, String delimiter) {
        Object ptr = data;
        for (String each : key.split(java.util.regex.Pattern.quote(delimiter), -1)) {
            if (ptr instanceof List<?> list) {
                Object found = embedded(list, each);
                if (found != MISSING) {
                    ptr = found;
                    continue;
                }
                try {
                    int idx = Integer.parseInt(each.strip());
                    ptr = list.get(idx < 0 ? list.size() + idx : idx);
                } catch (NumberFormatException | IndexOutOfBoundsException e) {
                    return fallback;
                }
            } else if (ptr instanceof Map<?, ?> map) {
                if (map.containsKey(each)) {
                    ptr = map.get(each);
                } else {
                    Object numeric = TextFilters.toNum(each); // Salt yamlifies the key: '1' finds the key 1
                    if (numeric instanceof Long l && map.containsKey(l.intValue())) {
                        ptr = map.get(l.intValue());
                    } else if (numeric != each && map.containsKey(numeric)) {
                        ptr = map.get(numeric);
                    } else {
                        return fallback;
                    }
                }
            } else {
                return fallback;
            }
        }
        return ptr;
    }

    private static final Object MISSING = new Object();

    /** Salt looks in the dicts of a list first, for a key (or an index) of that name. */
    private static Object embedded(List<?> list, String each) {
        for (Object item : list) {
            if (item instanceof Map<?, ?> m && m.containsKey(each)) {
                return m.get(each);
            }
        }
        return MISSING;
    }

    private static Object edit(Object value, SaltFilter.Args args, Edit edit) {
        String keys = PythonValues.str(args.required(0, "keys"));
        Object newValue = args.required(1, "value");
        String delimiter = args.text(2, "delimiter", ":");
        Map<?, ?> root = ListFilters.map(value);
        try {
            editAt(cast(root), keys, newValue, delimiter, edit);
            return root;
        } catch (UnsupportedOperationException e) {
            Map<Object, Object> copy = deepCopy(root);
            editAt(copy, keys, newValue, delimiter, edit);
            return copy;
        }
    }

    private static void editAt(Map<Object, Object> root, String keys, Object value, String delimiter, Edit edit) {
        String[] path = keys.split(java.util.regex.Pattern.quote(delimiter), -1);
        Map<Object, Object> ptr = root;
        for (int i = 0; i < path.length - 1; i++) {
            Object next = ptr.get(path[i]);
            if (next == null) {
                next = new LinkedHashMap<>();
                ptr.put(path[i], next);
            }
            if (!(next instanceof Map<?, ?> m)) {
                throw new RenderException("Cannot traverse into a '" + PythonValues.typeName(next) + "' at '"
                        + path[i] + "'");
            }
            ptr = cast(m);
        }
        edit.apply(ptr, path[path.length - 1], value);
    }

    private static List<Object> listAt(Map<Object, Object> parent, String key, String verb) {
        Object current = parent.get(key);
        if (current == null) {
            return new ArrayList<>();
        }
        if (!(current instanceof List<?> list)) {
            throw new RenderException("The last key contains a <class '" + PythonValues.typeName(current)
                    + "'>, which cannot " + verb + ".");
        }
        return new ArrayList<>(list);
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> cast(Map<?, ?> m) {
        return (Map<Object, Object>) m;
    }

    static Map<Object, Object> deepCopy(Map<?, ?> m) {
        Map<Object, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v instanceof Map<?, ?> inner ? deepCopy(inner) : v));
        return out;
    }
}
