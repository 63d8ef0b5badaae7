package io.jsalt.transport.target;

import java.util.Optional;

/** The {@code tgt_type} values jsalt matches, with Salt's wire names. */
public enum TargetType {
    GLOB("glob"),
    PCRE("pcre"),
    LIST("list"),
    GRAIN("grain"),
    GRAIN_PCRE("grain_pcre"),
    IPCIDR("ipcidr"),
    PILLAR("pillar"),
    PILLAR_PCRE("pillar_pcre"),
    COMPOUND("compound"),
    NODEGROUP("nodegroup");

    private final String wireName;

    TargetType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether deciding this type can need a minion's pillar (a compound may or may not). */
    public boolean mayNeedPillar() {
        return this == PILLAR || this == PILLAR_PCRE || this == COMPOUND || this == NODEGROUP;
    }

    /** Whether deciding this type can need a minion's grains (a compound may or may not). */
    public boolean mayNeedGrains() {
        return this == GRAIN || this == GRAIN_PCRE || this == IPCIDR || this == COMPOUND || this == NODEGROUP;
    }

    public static Optional<TargetType> fromWire(String name) {
        for (TargetType t : values()) {
            if (t.wireName.equals(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
