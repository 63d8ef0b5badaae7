package io.jsalt.transport.message;

import java.util.Map;

/**
 * The freshness stamp a jsalt minion puts in its {@code _pillar} and {@code _minion_event} loads: the
 * time it sent the request, in milliseconds since the epoch, under {@code jsalt_stamp}. A jsalt master
 * refuses a stamped load it has seen or that is too old (a replay); in signed grains it also orders
 * reports, so an older one never replaces a newer one. A Salt master ignores the extra key, as it does
 * every key it does not read.
 */
public final class RequestStamp {
    public static final String FIELD = "jsalt_stamp";

    private RequestStamp() {
    }

    /** A copy of {@code load} stamped with {@code millis}. */
    public static Map<String, Object> stamp(Map<String, Object> load, long millis) {
        Map<String, Object> stamped = new java.util.LinkedHashMap<>(load);
        stamped.put(FIELD, millis);
        return stamped;
    }

    /** The stamp of a load; null when it has none or it is not a whole number. */
    public static Long of(Map<String, Object> load) {
        return load.get(FIELD) instanceof Long || load.get(FIELD) instanceof Integer ? ((Number) load.get(FIELD)).longValue() : null;
    }
}
