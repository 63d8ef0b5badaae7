package io.jsalt.minion.supervisor;

import java.util.Locale;
import java.util.Optional;

/** Supervisor's {@code autorestart}: whether a process that exited from RUNNING is started again. */
public enum AutoRestart {
    /** Never. */
    FALSE,
    /** Only when its exit code is not one of {@code exitcodes} (Supervisor's default). */
    UNEXPECTED,
    /** Always. */
    TRUE;

    /** Supervisor's spellings: false/true (and Python's other booleans), unexpected. */
    static Optional<AutoRestart> parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "false", "no", "off", "0" -> Optional.of(FALSE);
            case "true", "yes", "on", "1" -> Optional.of(TRUE);
            case "unexpected" -> Optional.of(UNEXPECTED);
            default -> Optional.empty();
        };
    }

    /** Whether a process that exited with {@code expected} (its code is in exitcodes) is started again. */
    boolean restarts(boolean expected) {
        return this == TRUE || this == UNEXPECTED && !expected;
    }
}
