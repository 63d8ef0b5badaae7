package io.jsalt.modules.builtin;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.grains.GrainData;
import java.util.List;
import java.util.Map;

/** Salt's {@code salt.utils.data.filter_by}, behind {@code grains.filter_by}. */
final class GrainLookup {

    private GrainLookup() {
    }

    /**
     * The entry of {@code lookup} whose key (a glob, matched case-sensitively) matches the grain's value or one
     * of its items; else the {@code defaultKey} entry; merged over {@code base}'s entry, with {@code merge} on top.
     */
    @SuppressWarnings("unchecked")
    static Object filterBy(Map<String, Object> lookup, Object grainValue, Object merge, String defaultKey,
                           String base) {
        Object ret = null;
        List<?> values = grainValue instanceof List<?> list ? list : List.of(grainValue == null ? "None" : grainValue);
        for (Object each : values) {
            String text = each instanceof Boolean flag ? (flag ? "True" : "False") : String.valueOf(each);
            for (Map.Entry<String, Object> entry : lookup.entrySet()) {
                if (Glob.of(entry.getKey()).matches(text)) {
                    ret = GrainData.copy(entry.getValue());
                    break;
                }
            }
            if (ret != null) {
                break;
            }
        }
        if (ret == null) {
            ret = GrainData.copy(lookup.get(defaultKey));
        }
        if (base != null && !base.isEmpty() && lookup.containsKey(base)) {
            Object baseValues = lookup.get(base);
            if (ret == null) {
                ret = GrainData.copy(baseValues);
            } else if (baseValues instanceof Map<?, ?> baseMap) {
                if (!(ret instanceof Map<?, ?> retMap)) {
                    throw new CommandExecutionException("filter_by default and look-up values must both be "
                            + "dictionaries.");
                }
                ret = GrainData.update(GrainData.copyMap((Map<String, Object>) baseMap), retMap);
            }
        }
        if (isTrue(merge)) {
            if (!(merge instanceof Map<?, ?> mergeMap)) {
                throw new CommandExecutionException("filter_by merge argument must be a dictionary.");
            }
            if (ret == null) {
                ret = GrainData.copy(mergeMap);
            } else if (ret instanceof Map<?, ?>) {
                GrainData.update((Map<String, Object>) ret, mergeMap);
            } else {
                // Salt's dictupdate.update raises on a non-dict destination
                throw new CommandExecutionException("filter_by cannot merge into a value that is not a dictionary");
            }
        }
        return ret;
    }

    /** Python truthiness of the merge argument: None and empty values mean "no merge". */
    private static boolean isTrue(Object value) {
        if (value == null || Boolean.FALSE.equals(value)) {
            return false;
        }
        if (value instanceof String text) {
            return !text.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        if (value instanceof List<?> list) {
            return !list.isEmpty();
        }
        return !(value instanceof Number number) || number.doubleValue() != 0;
    }
}
