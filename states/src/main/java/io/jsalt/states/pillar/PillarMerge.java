package io.jsalt.states.pillar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code salt.utils.dictupdate.merge}: how one pillar source is merged on top of what the earlier ones
 * gave ({@code pillar_source_merging_strategy}, {@code pillar_merge_lists}). Neither input is changed; the result
 * shares no map or list with them.
 *
 * <ul>
 *   <li>{@code smart} (Salt's default) is {@code recurse}: Salt picks {@code aggregate} only for the
 *       {@code yamlex} renderer, which jsalt does not have.</li>
 *   <li>{@code recurse}: maps merge key by key, at every depth; anything else from the later source replaces the
 *       earlier value; with {@code mergeLists}, two lists are joined (the later one's items not already there
 *       appended, Salt's rule since 2016.11.6).</li>
 *   <li>{@code aggregate}: Salt's yamlex aggregation at level 1. Without yamlex's {@code !aggregate} marks, the
 *       top-level keys of both are kept, and for a key both have the later source's value wins whole (below the top
 *       level only the later map's keys survive, exactly as Salt's {@code aggregate} computes it).</li>
 *   <li>{@code overwrite}: Salt's 2014.1 behaviour: a top-level key of the later source replaces the earlier value
 *       whole.</li>
 *   <li>{@code none}: merges as {@code recurse}; what it changes is which top files are read (only the asked
 *       saltenv's), which the compiler decides.</li>
 * </ul>
 */
public final class PillarMerge {
    private final String strategy;
    private final boolean mergeLists;

    /**
     * @param strategy one of smart, recurse, aggregate, overwrite, none
     * @throws IllegalArgumentException for any other strategy (the config refuses it first)
     */
    public PillarMerge(String strategy, boolean mergeLists) {
        this.strategy = switch (strategy) {
            case "smart", "recurse", "none" -> "recurse";
            case "aggregate", "overwrite" -> strategy;
            default -> throw new IllegalArgumentException("unknown pillar merging strategy: " + strategy);
        };
        this.mergeLists = mergeLists;
    }

    /** Salt's defaults: smart, lists replaced. */
    public static PillarMerge defaults() {
        return new PillarMerge("smart", false);
    }

    /** {@code later} merged on top of {@code earlier}. */
    public Map<String, Object> merge(Map<String, Object> earlier, Map<String, Object> later) {
        return switch (strategy) {
            case "aggregate" -> aggregateTop(earlier, later);
            case "overwrite" -> overwrite(earlier, later);
            default -> recurse(earlier, later, mergeLists);
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> recurse(Map<String, Object> earlier, Map<?, ?> later, boolean mergeLists) {
        Map<String, Object> merged = deepCopy(earlier);
        for (Map.Entry<?, ?> e : later.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object before = merged.get(key);
            Object value = e.getValue();
            if (before instanceof Map<?, ?> b && value instanceof Map<?, ?> v) {
                merged.put(key, recurse((Map<String, Object>) b, v, mergeLists));
            } else if (mergeLists && before instanceof List<?> b && value instanceof List<?> v) {
                List<Object> joined = new ArrayList<>(b);
                for (Object item : v) {
                    if (!b.contains(item)) { // against the earlier list only, as Salt's comprehension does
                        joined.add(copyOf(item));
                    }
                }
                merged.put(key, joined);
            } else {
                merged.put(key, copyOf(value));
            }
        }
        return merged;
    }

    /** Salt's merge_overwrite: the later source's top-level keys replace, then a recurse that has nothing left to merge. */
    private Map<String, Object> overwrite(Map<String, Object> earlier, Map<String, Object> later) {
        Map<String, Object> merged = deepCopy(earlier);
        later.forEach((k, v) -> merged.put(k, copyOf(v)));
        return merged;
    }

    /** Level 1 of Salt's aggregate: both top levels are "marked", so their keys are united. */
    private static Map<String, Object> aggregateTop(Map<String, Object> earlier, Map<String, Object> later) {
        Map<String, Object> merged = deepCopy(earlier);
        later.forEach((k, v) -> merged.put(k, earlier.containsKey(k) ? aggregateUnmarked(earlier.get(k), v) : copyOf(v)));
        return merged;
    }

    /** Below level 1 nothing is marked: two maps give the later one's keys (each merged again), else the later value. */
    private static Object aggregateUnmarked(Object earlier, Object later) {
        if (earlier instanceof Map<?, ?> a && later instanceof Map<?, ?> b) {
            Map<String, Object> merged = new LinkedHashMap<>();
            b.forEach((k, v) -> merged.put(String.valueOf(k), a.containsKey(k) ? aggregateUnmarked(a.get(k), v) : copyOf(v)));
            return merged;
        }
        return copyOf(later);
    }

    /** A copy in which every map and list is new, so merging never changes a cached source. */
    public static Map<String, Object> deepCopy(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), copyOf(v)));
        return copy;
    }

    private static Object copyOf(Object value) {
        if (value instanceof Map<?, ?> m) {
            return deepCopy(m);
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            l.forEach(item -> copy.add(copyOf(item)));
            return copy;
        }
        return value;
    }
}
