package io.jsalt.master.pillar;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pillar the master last compiled for each minion, for pillar targeting ({@code -I}, {@code I@}). Held in
 * memory only: pillar holds secrets, and a restarted master compiles each minion's again when it signs in.
 *
 * <p>As for grains ({@code MinionDataCache}), a pillar compiled from grains the minion signed is <em>verified</em>;
 * one compiled from a salt-minion's unsigned grains is not, never replaces a verified one, and the target resolver
 * lets it put a minion in a target but never leave it out. A pillar compiled with a minion's own
 * {@code pillar_override} is never kept: a minion may not choose the values others target it by.
 */
public final class PillarCache {
    private record Known(Map<String, Object> pillar, boolean verified) {}

    private final Map<String, Known> known = new ConcurrentHashMap<>();

    /** Keeps {@code pillar} for {@code id}; false when it is unverified and a verified one is known. */
    public synchronized boolean put(String id, Map<String, Object> pillar, boolean verified) {
        Known before = known.get(id);
        if (!verified && before != null && before.verified()) {
            return false;
        }
        known.put(id, new Known(Collections.unmodifiableMap(new LinkedHashMap<>(pillar)), verified));
        return true;
    }

    public Optional<Map<String, Object>> pillar(String id) {
        return Optional.ofNullable(known.get(id)).map(Known::pillar);
    }

    /** True when the pillar known for {@code id} was compiled from grains it signed; false when unknown. */
    public boolean verified(String id) {
        Known k = known.get(id);
        return k != null && k.verified();
    }

    /** Drops the pillar of a minion whose key was deleted or rejected. */
    public void forget(String id) {
        known.remove(id);
    }
}
