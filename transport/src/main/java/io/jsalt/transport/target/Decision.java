package io.jsalt.transport.target;

/**
 * Whether a minion is targeted. {@link #UNKNOWN} only when the answer needs grains that are not known;
 * combining follows three-valued (Kleene) logic, so "web* and G@os:Debian" is still {@link #NO_MATCH}
 * for "db1" without grains.
 */
public enum Decision {
    MATCH,
    NO_MATCH,
    UNKNOWN;

    public static Decision of(boolean matched) {
        return matched ? MATCH : NO_MATCH;
    }

    public Decision and(Decision other) {
        if (this == NO_MATCH || other == NO_MATCH) {
            return NO_MATCH;
        }
        return this == UNKNOWN || other == UNKNOWN ? UNKNOWN : MATCH;
    }

    public Decision or(Decision other) {
        if (this == MATCH || other == MATCH) {
            return MATCH;
        }
        return this == UNKNOWN || other == UNKNOWN ? UNKNOWN : NO_MATCH;
    }

    public Decision not() {
        return switch (this) {
            case MATCH -> NO_MATCH;
            case NO_MATCH -> MATCH;
            case UNKNOWN -> UNKNOWN;
        };
    }
}
