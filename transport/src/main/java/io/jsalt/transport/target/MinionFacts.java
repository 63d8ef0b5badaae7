package io.jsalt.transport.target;

import java.util.Map;

/**
 * What a target is matched against: the minion's id, its grains and its pillar. {@code grains} (or {@code pillar})
 * is null when it is not known (the master has not heard it yet); a target that needs it then cannot be decided.
 */
public record MinionFacts(String id, Map<String, Object> grains, Map<String, Object> pillar) {
    public MinionFacts {
        if (id == null) {
            throw new IllegalArgumentException("a minion id is required");
        }
    }

    /** Facts without a pillar: a pillar target is undecided. */
    public MinionFacts(String id, Map<String, Object> grains) {
        this(id, grains, null);
    }

    public static MinionFacts idOnly(String id) {
        return new MinionFacts(id, null, null);
    }

    public boolean knowsGrains() {
        return grains != null;
    }

    public boolean knowsPillar() {
        return pillar != null;
    }
}
