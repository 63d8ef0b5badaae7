package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.List;

/**
 * The itertools functions Salt offers as filters ({@code combinations}, {@code combinations_with_replacement},
 * {@code permutations}, {@code product}, {@code zip}, {@code zip_longest}, {@code compress}), in itertools' order.
 * Python gives iterators; jsalt gives the lists they yield (so {@code | list} is the same), with tuples as items.
 */
final class IterFilters {
    private static final int MAX_ITEMS = 100_000; // a template cannot ask for an astronomically long list

    private IterFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("combinations", (value, args) -> combinations(PythonValues.items(value),
                        count(args.required(0, "r")), false)),
                new SaltFilter("combinations_with_replacement", (value, args) -> combinations(PythonValues.items(value),
                        count(args.required(0, "r")), true)),
                new SaltFilter("permutations", (value, args) -> {
                    List<Object> pool = PythonValues.items(value);
                    Object r = args.get(0, "r", null);
                    return permutations(pool, r == null ? pool.size() : count(r));
                }),
                new SaltFilter("product", (value, args) -> {
                    List<List<Object>> pools = new ArrayList<>();
                    pools.add(PythonValues.items(value));
                    for (Object p : args.positional()) {
                        pools.add(PythonValues.items(p));
                    }
                    int repeat = count(args.keywords().getOrDefault("repeat", 1));
                    List<List<Object>> all = new ArrayList<>();
                    for (int i = 0; i < repeat; i++) {
                        all.addAll(pools);
                    }
                    return product(all);
                }),
                new SaltFilter("zip", (value, args) -> zip(value, args, false)),
                new SaltFilter("zip_longest", (value, args) -> zip(value, args, true)),
                new SaltFilter("compress", (value, args) -> {
                    List<Object> data = PythonValues.items(value);
                    List<Object> selectors = PythonValues.items(args.required(0, "selectors"));
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < Math.min(data.size(), selectors.size()); i++) {
                        if (PythonValues.truthy(selectors.get(i))) {
                            out.add(data.get(i));
                        }
                    }
                    return out;
                }));
    }

    private static int count(Object v) {
        Object n = TextFilters.toNum(v);
        if (!(n instanceof Number number) || number.intValue() < 0) {
            throw new RenderException("r must be a non-negative integer, got " + PythonValues.repr(v));
        }
        return number.intValue();
    }

    private static List<Object> combinations(List<Object> pool, int r, boolean replacement) {
        List<Object> out = new ArrayList<>();
        combine(pool, r, replacement, 0, new ArrayList<>(), out);
        return out;
    }

    private static void combine(List<Object> pool, int r, boolean replacement, int start, List<Object> current,
            List<Object> out) {
        if (current.size() == r) {
            add(out, new PyTuple(current));
            return;
        }
        for (int i = start; i < pool.size(); i++) {
            current.add(pool.get(i));
            combine(pool, r, replacement, replacement ? i : i + 1, current, out);
            current.remove(current.size() - 1);
        }
    }

    private static List<Object> permutations(List<Object> pool, int r) {
        List<Object> out = new ArrayList<>();
        permute(pool, r, new boolean[pool.size()], new ArrayList<>(), out);
        return out;
    }

    private static void permute(List<Object> pool, int r, boolean[] used, List<Object> current, List<Object> out) {
        if (current.size() == r) {
            add(out, new PyTuple(current));
            return;
        }
        for (int i = 0; i < pool.size(); i++) {
            if (!used[i]) {
                used[i] = true;
                current.add(pool.get(i));
                permute(pool, r, used, current, out);
                current.remove(current.size() - 1);
                used[i] = false;
            }
        }
    }

    private static List<Object> product(List<List<Object>> pools) {
        List<List<Object>> acc = new ArrayList<>();
        acc.add(new ArrayList<>());
        for (List<Object> pool : pools) {
            List<List<Object>> next = new ArrayList<>();
            for (List<Object> prefix : acc) {
                for (Object item : pool) {
                    List<Object> longer = new ArrayList<>(prefix);
                    longer.add(item);
                    next.add(longer);
                    if (next.size() > MAX_ITEMS) {
                        throw new RenderException("more than " + MAX_ITEMS + " items");
                    }
                }
            }
            acc = next;
        }
        List<Object> out = new ArrayList<>();
        acc.forEach(t -> out.add(new PyTuple(t)));
        return out;
    }

    private static List<Object> zip(Object value, SaltFilter.Args args, boolean longest) {
        List<List<Object>> lists = new ArrayList<>();
        lists.add(PythonValues.items(value));
        for (Object p : args.positional()) {
            lists.add(PythonValues.items(p));
        }
        Object fill = args.keywords().get("fillvalue");
        int n = lists.stream().mapToInt(List::size).reduce(longest ? 0 : Integer.MAX_VALUE,
                longest ? Math::max : Math::min);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Object> row = new ArrayList<>();
            for (List<Object> l : lists) {
                row.add(i < l.size() ? l.get(i) : fill);
            }
            out.add(new PyTuple(row));
        }
        return out;
    }

    private static void add(List<Object> out, Object item) {
        if (out.size() >= MAX_ITEMS) {
            throw new RenderException("more than " + MAX_ITEMS + " items");
        }
        out.add(item);
    }
}
