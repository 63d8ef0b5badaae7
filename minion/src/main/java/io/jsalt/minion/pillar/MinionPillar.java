package io.jsalt.minion.pillar;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The pillar this minion holds in memory (Salt's {@code __pillar__}): empty until the master first answers a
 * {@code _pillar} request (at every sign-in, tried again in the background when the master was too slow; at each
 * {@code saltutil.refresh_pillar}; at each state run, which asks for its own), then the newest answer. Jobs read it
 * whole; a refresh swaps it at once. Never logged.
 */
public final class MinionPillar implements Supplier<Map<String, Object>> {
    private volatile Map<String, Object> current = Map.of();

    /** The pillar now. */
    @Override
    public Map<String, Object> get() {
        return current;
    }

    /** Replaces the pillar with {@code pillar} as the master sent it. */
    public void set(Map<String, Object> pillar) {
        current = Collections.unmodifiableMap(new LinkedHashMap<>(pillar));
    }
}
