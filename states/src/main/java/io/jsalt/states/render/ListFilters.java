package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Salt's filters on lists and their items (salt/utils/jinja.py, data.py): set operations that keep the first
 * list's order, {@code min}/{@code max}/{@code avg}, {@code sequence}, {@code flatten}, the truth counts, and list
 * and dict comparisons. Jinjava's own {@code unique}, {@code union}, ... are replaced by these.
 */
final class ListFilters {
    private ListFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                // Python's list(): a dict gives its keys, a text its characters (Jinjava's wraps them in a list)
                new SaltFilter("list", (value, args) -> new ArrayList<>(PythonValues.items(value))),
                new SaltFilter("unique", (value, args) -> unique(PythonValues.items(value))),
                new SaltFilter("min", (value, args) -> PythonValues.items(value).stream().min(PythonValues::compare)
                        .orElseThrow(() -> new RenderException("min() arg is an empty sequence"))),
                new SaltFilter("max", (value, args) -> PythonValues.items(value).stream().max(PythonValues::compare)
                        .orElseThrow(() -> new RenderException("max() arg is an empty sequence"))),
                new SaltFilter("avg", (value, args) -> avg(value)),
                new SaltFilter("union", (value, args) -> {
                    List<Object> all = new ArrayList<>(PythonValues.items(value));
                    all.addAll(PythonValues.items(args.required(0, "lst2")));
                    return unique(all);
                }),
                new SaltFilter("intersect", (value, args) -> {
                    List<Object> other = PythonValues.items(args.required(0, "lst2"));
                    return unique(PythonValues.items(value).stream().filter(e -> contains(other, e)).toList());
                }),
                new SaltFilter("difference", (value, args) -> {
                    List<Object> other = PythonValues.items(args.required(0, "lst2"));
                    return unique(PythonValues.items(value).stream().filter(e -> !contains(other, e)).toList());
                }),
                new SaltFilter("symmetric_difference", (value, args) -> {
                    List<Object> a = PythonValues.items(value);
                    List<Object> b = PythonValues.items(args.required(0, "lst2"));
                    List<Object> all = new ArrayList<>(a);
                    all.addAll(b);
                    return unique(unique(all).stream().filter(e -> !(contains(a, e) && contains(b, e))).toList());
                }),
                new SaltFilter("is_list", (value, args) -> value instanceof List<?> && !(value instanceof PyTuple)),
                new SaltFilter("is_iter", (value, args) -> !(value instanceof CharSequence) && (value instanceof Iterable<?>
                        || value instanceof Map<?, ?>)),
                new SaltFilter("sequence", (value, args) -> value instanceof Collection<?> || value instanceof Map<?, ?>
                        ? value : new ArrayList<>(java.util.Collections.singletonList(value))),
                new SaltFilter("flatten", (value, args) -> {
                    Object levels = args.get(0, "levels", null);
                    return flatten(value, levels == null ? -1 : ((Number) TextFilters.toNum(levels)).intValue(),
                            args.flag(1, "preserve_nulls"));
                }),
                new SaltFilter("exactly_n_true", (value, args) -> exactlyTrue(value,
                        ((Number) TextFilters.toNum(args.get(0, "amount", 1))).intValue())),
                new SaltFilter("exactly_one_true", (value, args) -> exactlyTrue(value, 1)),
                new SaltFilter("substring_in_list", (value, args) -> PythonValues.items(args.required(0, "list_to_search"))
                        .stream().anyMatch(s -> PythonValues.str(s).contains(PythonValues.str(value)))),
                new SaltFilter("sorted_ignorecase", (value, args) -> PythonValues.items(value).stream()
                        .sorted(Comparator.comparing(s -> PythonValues.str(s).toLowerCase())).toList()),
                new SaltFilter("compare_lists", (value, args) -> compareLists(PythonValues.items(value),
                        PythonValues.items(args.required(0, "new")))),
                new SaltFilter("compare_dicts", (value, args) -> compareDicts(map(value), map(args.required(0, "new")))));
    }

    /** Salt's {@code unique}: the first of each value, in order. */
    static List<Object> unique(List<Object> values) {
        List<Object> out = new ArrayList<>();
        for (Object v : values) {
            if (!contains(out, v)) {
                out.add(v);
            }
        }
        return out;
    }

    private static boolean contains(List<Object> list, Object v) {
        return list.stream().anyMatch(e -> PythonValues.equal(e, v));
    }

    private static double avg(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue(); // Salt: a single number is its own average
        }
        List<Object> items = PythonValues.items(value);
        if (items.isEmpty()) {
            throw new RenderException("division by zero");
        }
        double sum = 0;
        for (Object o : items) {
            if (!(o instanceof Number n)) {
                throw new RenderException("unsupported operand type(s) for +: 'int' and '" + PythonValues.typeName(o) + "'");
            }
            sum += n.doubleValue();
        }
        return sum / items.size();
    }

    /** Salt's {@code flatten}: nested lists into one; None, "None" and "null" dropped unless {@code preserve_nulls}. */
    static List<Object> flatten(Object data, int levels, boolean preserveNulls) {
        List<Object> out = new ArrayList<>();
        for (Object e : PythonValues.items(data)) {
            if (!preserveNulls && (e == null || "None".equals(e) || "null".equals(e))) {
                continue;
            }
            boolean iterable = !(e instanceof CharSequence) && (e instanceof Iterable<?> || e instanceof Map<?, ?>);
            if (iterable && levels != 0) {
                out.addAll(flatten(e, levels < 0 ? -1 : levels - 1, preserveNulls));
            } else {
                out.add(e);
            }
        }
        return out;
    }

    /** Salt's {@code exactly_n}: the first {@code amount} true values exist and none after them. */
    private static boolean exactlyTrue(Object value, int amount) {
        long trues = PythonValues.items(value).stream().filter(PythonValues::truthy).count();
        return trues == amount;
    }

    private static Map<String, Object> compareLists(List<Object> old, List<Object> now) {
        Map<String, Object> ret = new LinkedHashMap<>();
        List<Object> added = now.stream().filter(i -> !contains(old, i)).toList();
        List<Object> removed = old.stream().filter(i -> !contains(now, i)).toList();
        if (!added.isEmpty()) {
            ret.put("new", new ArrayList<>(added));
        }
        if (!removed.isEmpty()) {
            ret.put("old", new ArrayList<>(removed));
        }
        return ret;
    }

    private static Map<Object, Object> compareDicts(Map<?, ?> old, Map<?, ?> now) {
        Map<Object, Object> ret = new LinkedHashMap<>();
        Set<Object> keys = new java.util.LinkedHashSet<>(now.keySet());
        keys.addAll(old.keySet());
        for (Object key : keys) {
            if (!old.containsKey(key)) {
                ret.put(key, change("", now.get(key)));
            } else if (!now.containsKey(key)) {
                ret.put(key, change(old.get(key), ""));
            } else if (!PythonValues.equal(old.get(key), now.get(key))) {
                ret.put(key, change(old.get(key), now.get(key)));
            }
        }
        return ret;
    }

    private static Map<String, Object> change(Object old, Object now) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("old", old);
        c.put("new", now);
        return c;
    }

    static Map<?, ?> map(Object value) {
        if (value instanceof Map<?, ?> m) {
            return m;
        }
        throw new RenderException("expected a dict, got '" + PythonValues.typeName(value) + "'");
    }
}
