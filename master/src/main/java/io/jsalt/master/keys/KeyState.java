package io.jsalt.master.keys;

import java.util.Optional;

/** Where a minion's key stands, and the pki folder that holds it (Salt's names, for salt-key habits). */
public enum KeyState {
    ACCEPTED("minions", "accepted"),
    PENDING("minions_pre", "pending"),
    REJECTED("minions_rejected", "rejected"),
    DENIED("minions_denied", "denied");

    private final String folder;
    private final String label;

    KeyState(String folder, String label) {
        this.folder = folder;
        this.label = label;
    }

    public String folder() {
        return folder;
    }

    /** The word salt-key uses: accepted, pending (unaccepted), rejected, denied. */
    public String label() {
        return label;
    }

    /** Accepts salt-key's words for {@code -l}: acc, accepted, pre, un, unaccepted, pending, rej, rejected, den, denied. */
    public static Optional<KeyState> parse(String word) {
        return switch (word.toLowerCase()) {
            case "acc", "accepted", "minions" -> Optional.of(ACCEPTED);
            case "pre", "un", "unaccepted", "pending", "minions_pre" -> Optional.of(PENDING);
            case "rej", "rejected", "minions_rejected" -> Optional.of(REJECTED);
            case "den", "denied", "minions_denied" -> Optional.of(DENIED);
            default -> Optional.empty();
        };
    }
}
