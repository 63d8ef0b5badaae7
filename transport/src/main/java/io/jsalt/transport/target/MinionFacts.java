package io.jsalt.transport.target;

import java.util.Map;

/**
 * What a target is matched against: the minion's id and its grains. {@code grains} is null when they are
 * not known (the master has not heard them yet); a grain-based target then cannot be decided.
 */
public record MinionFacts(String id, Map<String, Object> grains) {
    public MinionFacts {
        if (id == null) {
            throw new IllegalArgumentException("a minion id is required");
        }
    }

    public static MinionFacts idOnly(String id) {
        return new MinionFacts(id, null);
    }

    public boolean knowsGrains() {
        return grains != null;
    }
}
