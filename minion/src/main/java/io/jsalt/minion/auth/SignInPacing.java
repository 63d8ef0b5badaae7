package io.jsalt.minion.auth;

import io.jsalt.config.MinionConfig;
import java.util.random.RandomGenerator;

/**
 * When to try signing in again. While the key is pending: acceptance_wait_time, doubling up to
 * acceptance_wait_time_max. After the master did not answer: recon_default doubling with each failure in a
 * row up to recon_max; with recon_randomize the wait is drawn uniformly from
 * [recon_default, recon_default + that ceiling] (Salt's recon_randomize draws from the same kind of range),
 * so a fleet that lost its master does not retry in lockstep. After a session-key change: a uniform delay
 * in [0, random_reauth_delay] seconds, so a master restart does not bring every minion back at once.
 * Thread-safe: the sign-in loop and job threads both ask.
 */
public final class SignInPacing {

    /** The settings this reads, in the config's units. */
    public record Settings(double acceptanceWaitTime, double acceptanceWaitTimeMax, int reconDefaultMs, int reconMaxMs,
            boolean reconRandomize, int randomReauthDelaySeconds) {
        public static Settings of(MinionConfig c) {
            return new Settings(c.acceptanceWaitTime(), c.acceptanceWaitTimeMax(), c.reconDefault(), c.reconMax(),
                    c.reconRandomize(), c.randomReauthDelay());
        }
    }

    private final Settings settings;
    private final RandomGenerator random;
    private double pendingWait;
    private int failuresInARow;
    private int refusedInARow;

    public SignInPacing(Settings settings, RandomGenerator random) {
        this.settings = settings;
        this.random = random;
        this.pendingWait = settings.acceptanceWaitTime();
    }

    /** Milliseconds to wait after an attempt the master did not answer; each call counts one failure. */
    public synchronized long afterFailureMs() {
        long base = settings.reconDefaultMs();
        long max = Math.max(base, settings.reconMaxMs());
        long ceiling = Math.min(max, base << Math.min(failuresInARow, 30));
        failuresInARow++;
        if (!settings.reconRandomize()) {
            return ceiling;
        }
        return base + random.nextLong(ceiling + 1);
    }

    /**
     * Milliseconds to wait before signing in again after the master refused a session it had just granted
     * (a persistent mismatch, not a key rotation): recon_default doubling up to recon_max. Unlike
     * {@link #afterFailureMs}, a successful sign-in does not restart the count, because signing in is exactly
     * what keeps succeeding; {@link #sessionOutlived} does.
     */
    public synchronized long afterRefusedSessionMs() {
        long base = settings.reconDefaultMs();
        long max = Math.max(base, settings.reconMaxMs());
        long wait = Math.min(max, base << Math.min(refusedInARow, 30));
        refusedInARow++;
        return wait;
    }

    /** A session lasted beyond its first moments: a later refusal is a real key change again. */
    public synchronized void sessionOutlived() {
        refusedInARow = 0;
    }

    /** Milliseconds to wait before asking again while the key is pending; doubles up to the maximum. */
    public synchronized long whilePendingMs() {
        double wait = pendingWait;
        pendingWait = Math.min(pendingWait * 2, Math.max(settings.acceptanceWaitTimeMax(), settings.acceptanceWaitTime()));
        failuresInARow = 0;
        return Math.round(wait * 1000);
    }

    /** Milliseconds to wait before signing in again after the master changed its session key. */
    public long reauthDelayMs() {
        return random.nextLong(settings.randomReauthDelaySeconds() * 1000L + 1);
    }

    /** The master answered: the failure count restarts. */
    public synchronized void answered() {
        failuresInARow = 0;
    }

    /** Signed in: both waits start over. */
    public synchronized void signedIn() {
        failuresInARow = 0;
        pendingWait = settings.acceptanceWaitTime();
    }

    /** The largest wait {@link #afterFailureMs} can give, for documentation and tests. */
    public long maxAfterFailureMs() {
        long max = Math.max(settings.reconDefaultMs(), settings.reconMaxMs());
        return settings.reconRandomize() ? settings.reconDefaultMs() + max : max;
    }
}
