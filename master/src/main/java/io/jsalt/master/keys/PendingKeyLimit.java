package io.jsalt.master.keys;

import java.util.function.LongSupplier;

/**
 * How many new keys may wait for acceptance: at most {@code max_pending_minions} files in
 * {@code minions_pre}, and new ones taken at most {@code pending_keys_per_minute} a minute (a token bucket
 * holding a minute's worth), so anyone who can reach the request port cannot fill the disk or bury the
 * operator's {@code jsalt-key -L} under random ids. Salt has neither; its {@code max_minions} counts
 * accepted keys only. The request port does not tell a handler the peer's address, so the rate is global:
 * a flood delays other new minions, which keep asking ({@code acceptance_wait_time}) and get in after it.
 */
public final class PendingKeyLimit {
    /** Why a new key was not written. */
    public enum Verdict { ADMITTED, TOO_MANY_PENDING, TOO_FAST }

    private final LongSupplier nanoClock;
    private double tokens = -1;
    private long refilledAt;

    public PendingKeyLimit() {
        this(System::nanoTime);
    }

    PendingKeyLimit(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * Whether one more key may be written to {@code minions_pre}, which holds {@code pending} now; an admitted
     * key takes a token.
     *
     * @param maxPending 0 for no limit
     */
    public synchronized Verdict admit(int pending, int maxPending, int perMinute) {
        if (maxPending > 0 && pending >= maxPending) {
            return Verdict.TOO_MANY_PENDING;
        }
        long now = nanoClock.getAsLong();
        if (tokens < 0) {
            tokens = perMinute;
        } else {
            tokens = Math.min(perMinute, tokens + (now - refilledAt) / 60e9 * perMinute);
        }
        refilledAt = now;
        if (tokens < 1) {
            return Verdict.TOO_FAST;
        }
        tokens -= 1;
        return Verdict.ADMITTED;
    }
}
