package io.jsalt.master.request;

import io.jsalt.transport.message.RequestStamp;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Refuses a replayed request from a jsalt minion. A jsalt minion stamps its {@code _pillar} and
 * {@code _minion_event} loads with the time it sent them ({@link RequestStamp}); the load travels encrypted
 * with the session key, so an on-path attacker can only send it again whole. A stamped load is taken once:
 * its request {@code nonce} is remembered while the stamp is young, and a stamp older (or further ahead of
 * the master's clock) than {@code request_max_age} is refused. A load without a stamp (a salt-minion's:
 * Salt sends none) passes; a restart of the master changes the session key, which already voids every
 * request captured before it.
 */
public final class RequestFreshness {
    /** The most nonces remembered: a flood beyond it is refused rather than held. */
    static final int MAX_REMEMBERED = 200_000;

    /** Why a stamped load was refused; null when it is fresh. */
    public enum Refusal { STALE, REPLAYED, MALFORMED, TOO_MANY }

    private final Supplier<Duration> maxAge;
    private final LongSupplier clockMillis;
    /** nonce → the stamp it came with, while that stamp is within the window. */
    private final Map<String, Long> seen = new ConcurrentHashMap<>();

    public RequestFreshness(Supplier<Duration> maxAge) {
        this(maxAge, System::currentTimeMillis);
    }

    RequestFreshness(Supplier<Duration> maxAge, LongSupplier clockMillis) {
        this.maxAge = maxAge;
        this.clockMillis = clockMillis;
    }

    /**
     * Checks a decrypted load (its {@code nonce} already taken out): null when it may be handled, else why not.
     * A fresh stamped load is remembered, so the same one is refused next time.
     */
    public Refusal check(Map<String, Object> load, String nonce) {
        if (!load.containsKey(RequestStamp.FIELD)) {
            return null;
        }
        Long stamp = RequestStamp.of(load);
        if (stamp == null || nonce == null) {
            return Refusal.MALFORMED;
        }
        long now = clockMillis.getAsLong();
        long window = maxAge.get().toMillis();
        if (Math.abs(now - stamp) > window) {
            return Refusal.STALE;
        }
        if (seen.size() >= MAX_REMEMBERED) {
            evictOlderThan(now - window);
            if (seen.size() >= MAX_REMEMBERED) {
                return Refusal.TOO_MANY;
            }
        }
        if (seen.putIfAbsent(nonce, stamp) != null) {
            return Refusal.REPLAYED;
        }
        if (seen.size() % 1024 == 0) {
            evictOlderThan(now - window);
        }
        return null;
    }

    private void evictOlderThan(long oldestKept) {
        for (Iterator<Long> it = seen.values().iterator(); it.hasNext();) {
            if (it.next() < oldestKept) {
                it.remove();
            }
        }
    }

    /** How many nonces are remembered now. */
    int remembered() {
        return seen.size();
    }
}
