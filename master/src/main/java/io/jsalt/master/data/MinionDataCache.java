package io.jsalt.master.data;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The grains each minion last reported (with its pillar request), kept for targeting. */
public final class MinionDataCache {
    private final Map<String, Map<String, Object>> grains = new ConcurrentHashMap<>();

    public void putGrains(String id, Map<String, Object> minionGrains) {
        // Salt grains often hold None: keep nulls (Map.copyOf would refuse them)
        grains.put(id, java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(minionGrains)));
    }

    public Optional<Map<String, Object>> grains(String id) {
        return Optional.ofNullable(grains.get(id));
    }

    public void forget(String id) {
        grains.remove(id);
    }
}
