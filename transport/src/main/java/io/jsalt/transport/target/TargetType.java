package io.jsalt.transport.target;

import java.util.Optional;

/** The {@code tgt_type} values jsalt matches today, with Salt's wire names. */
public enum TargetType {
    GLOB("glob"),
    PCRE("pcre"),
    LIST("list");

    private final String wireName;

    TargetType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
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
