package io.jsalt.master.auth;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The master's own brake on password guessing, for every way a password reaches it: {@code mk_token} and the
 * inline {@code eauth}/{@code username}/{@code password} of publish, runner, wheel and {@code job_returns}.
 * jsalt-api limits its logins per address, but a client holding the request port (or {@code jsalt -a}) never
 * passes through jsalt-api, so the limit lives here too: after {@code max} failures within the window for one
 * user name, or from one address, further attempts are refused without looking at the password until the
 * oldest failure leaves the window. The address is known only when jsalt-api vouches for it (see
 * {@code io.jsalt.master.request.SourceAddress}); every other client counts as the one address
 * {@code direct}, so spraying one password over many names is bounded too. A success erases nothing.
 * Memory is bounded: at most {@link #MAX_KEYS} names and addresses are tracked. When a new one comes and the
 * table is full, a key whose failures have all left the window goes first; when none has, the key with the
 * fewest failures in the window (the one asked about longest ago among equals). So a flood of failures over
 * many other names and addresses cannot reset the count of a name under attack: it only churns keys with as
 * few failures as its own (clearing the whole table, as this once did, reset every count).
 */
public final class LoginLimiter {
    static final int MAX_KEYS = 10_000;
    public static final String TOO_MANY = "Too many failed logins: try again later";

    /** {@code eauth_login_failures} within {@code eauth_login_window} seconds. */
    public record Limits(int maxFailures, long windowSeconds) {
        public static final Limits DEFAULTS = new Limits(10, 60);
    }

    private final Clock clock;
    private final Supplier<Limits> limits;
    /** The failure times of each key, in the order of their last failure (the most recent last). */
    private final Map<String, Deque<Long>> failures = new LinkedHashMap<>(256, 0.75f, true);

    public LoginLimiter(Clock clock, Supplier<Limits> limits) {
        this.clock = clock;
        this.limits = limits;
    }

    /** Whether a password for {@code user} from {@code address} (null: a direct client) may be tried now. */
    public synchronized boolean allows(String user, String address) {
        return under(userKey(user)) && under("addr:" + where(address));
    }

    public synchronized void failed(String user, String address) {
        record(userKey(user));
        record("addr:" + where(address));
    }

    /**
     * One key per account, however its name is typed: LDAP and most PAM set-ups (sssd, winbind) take
     * {@code Alice} and {@code alice } for {@code alice}, so each spelling may not get tries of its own.
     */
    private static String userKey(String user) {
        return "user:" + user.strip().toLowerCase(java.util.Locale.ROOT);
    }

    /** How many names and addresses are tracked now. */
    synchronized int tracked() {
        return failures.size();
    }

    private boolean under(String key) {
        Deque<Long> times = failures.get(key);
        if (times == null) {
            return true;
        }
        prune(times);
        return times.size() < limits.get().maxFailures();
    }

    private void record(String key) {
        Deque<Long> times = failures.get(key);
        if (times == null) {
            if (failures.size() >= MAX_KEYS) {
                evictOne();
            }
            times = new ArrayDeque<>();
            failures.put(key, times);
        }
        prune(times);
        times.addLast(clock.millis());
    }

    /** Makes room: a key with no failure left in the window, else the one with the fewest (the least recently used among equals). */
    private void evictOne() {
        String fewest = null;
        int fewestCount = Integer.MAX_VALUE;
        for (var it = failures.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Deque<Long>> e = it.next();
            prune(e.getValue());
            if (e.getValue().isEmpty()) {
                it.remove();
                return;
            }
            if (e.getValue().size() < fewestCount) {
                fewest = e.getKey();
                fewestCount = e.getValue().size();
            }
        }
        failures.remove(fewest);
    }

    private void prune(Deque<Long> times) {
        long now = clock.millis();
        long window = limits.get().windowSeconds() * 1000;
        while (!times.isEmpty() && now - times.peekFirst() >= window) {
            times.removeFirst();
        }
    }

    private static String where(String address) {
        return address == null ? "direct" : address;
    }
}
