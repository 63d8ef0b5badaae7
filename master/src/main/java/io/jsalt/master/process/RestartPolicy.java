package io.jsalt.master.process;

import java.time.Duration;

/**
 * How a dead component is restarted: after {@code initialBackoff}, doubling with each restart within
 * {@code window} up to {@code maxBackoff}; past {@code restartMax} restarts within {@code window} it is
 * "restarting too fast": then either given up, or, with {@code restartForever}, retried every
 * {@code maxBackoff}, never faster.
 */
public record RestartPolicy(int restartMax, Duration window, boolean restartForever, Duration initialBackoff,
        Duration maxBackoff) {

    public RestartPolicy {
        if (restartMax < 1) {
            throw new IllegalArgumentException("restartMax must be at least 1, not " + restartMax);
        }
        if (window.isNegative() || window.isZero() || initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("need window > 0 and 0 <= initialBackoff <= maxBackoff");
        }
    }

    /** The wait before the next restart of a component restarted {@code recentRestarts} times within the window. */
    public Duration backoff(int recentRestarts) {
        if (recentRestarts >= restartMax) {
            return maxBackoff;
        }
        long millis = initialBackoff.toMillis() << Math.min(recentRestarts, 30);
        return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
    }

    /** True when one more restart would exceed the budget. */
    public boolean tooFast(int recentRestarts) {
        return recentRestarts >= restartMax;
    }
}
