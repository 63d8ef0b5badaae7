package io.jsalt.api.auth;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows password guessing: after {@code maxFailures} failed logins from one address within
 * {@code windowSeconds}, that address's logins are refused (429) until the oldest failure leaves the window.
 * A success does not erase failures (a guesser who owns one account must not reset the count). Memory is
 * bounded: at most {@link #MAX_ADDRESSES} addresses are tracked; past that the table is cleared, which only
 * ever errs towards letting a login through.
 */
public final class LoginThrottle {
    static final int MAX_ADDRESSES = 10_000;

    private final Clock clock;
    private final int maxFailures;
    private final long windowMillis;
    private final Map<String, Deque<Long>> failures = new ConcurrentHashMap<>();

    public LoginThrottle(Clock clock, int maxFailures, long windowSeconds) {
        this.clock = clock;
        this.maxFailures = maxFailures;
        this.windowMillis = windowSeconds * 1000;
    }

    /** Whether a login from {@code address} may be tried now. */
    public boolean allows(String address) {
        Deque<Long> times = failures.get(key(address));
        if (times == null) {
            return true;
        }
        synchronized (times) {
            prune(times);
            return times.size() < maxFailures;
        }
    }

    public void failed(String address) {
        if (failures.size() >= MAX_ADDRESSES) {
            failures.clear();
        }
        Deque<Long> times = failures.computeIfAbsent(key(address), k -> new ArrayDeque<>());
        synchronized (times) {
            prune(times);
            times.addLast(clock.millis());
        }
    }

    private void prune(Deque<Long> times) {
        long now = clock.millis();
        while (!times.isEmpty() && now - times.peekFirst() >= windowMillis) {
            times.removeFirst();
        }
    }

    private static String key(String address) {
        return address == null ? "" : address;
    }
}
