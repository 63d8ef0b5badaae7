package io.jsalt.master.auth;

import io.jsalt.transport.codec.Printable;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a slow backend ({@code ldap}, {@code pam}) still knows a token's user, asked at most once per
 * {@link #FRESH} per user: every use of a token (each API call, each event a stream shows, each refresh) asks,
 * and a directory answer costs a round trip or, when the directory hangs, its 5 s timeout. A token already
 * bounds the session ({@code token_expire}); this only delays by at most {@link #FRESH} the moment a user
 * deleted from the directory loses their live tokens. The question goes to a {@link BackendCalls} thread and a
 * request waits at most {@link #WAIT} for it: when the backend has not answered by then (or cannot be asked)
 * the last answer stands, or, for a user never asked about, the token is kept, as it is for an unreachable
 * directory; the late answer is remembered when it comes. One question per user is in flight at a time.
 * At most {@link #MAX_USERS} users are remembered, the least recently asked about forgotten first.
 */
final class KnownUsers {
    static final Duration FRESH = Duration.ofSeconds(30);
    static final Duration WAIT = Duration.ofMillis(300);
    static final int MAX_USERS = 10_000;

    private static final Logger log = LoggerFactory.getLogger(KnownUsers.class);

    /** The last answer ({@code null}: none yet), when it came, and the question in flight, if any. */
    private record Entry(Boolean known, long answeredAt, CompletableFuture<Boolean> asking) {}

    private final BackendCalls calls;
    private final Clock clock;
    private final Map<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > MAX_USERS;
        }
    };

    KnownUsers(BackendCalls calls, Clock clock) {
        this.calls = calls;
        this.clock = clock;
    }

    /** Whether {@code user} of backend {@code eauth} still exists, {@code lookup} asking the backend itself. */
    boolean stillKnown(String eauth, String user, BooleanSupplier lookup) {
        String key = eauth + ":" + user;
        CompletableFuture<Boolean> asking;
        Boolean last;
        synchronized (entries) {
            Entry entry = entries.get(key);
            last = entry == null ? null : entry.known();
            if (last != null && clock.millis() - entry.answeredAt() < FRESH.toMillis()) {
                return last;
            }
            if (entry != null && entry.asking() != null) {
                asking = entry.asking();
            } else {
                asking = calls.start(lookup::getAsBoolean);
                entries.put(key, new Entry(last, entry == null ? 0 : entry.answeredAt(), asking));
                asking.whenComplete((known, failure) -> remember(key, known, asking));
            }
        }
        try {
            return asking.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            boolean kept = last == null || last;
            log.warn("eauth {}: no answer yet on whether {} still exists ({}); {}", eauth, Printable.quoted(user),
                    e instanceof TimeoutException ? "still asking" : e.getCause().getMessage(),
                    kept ? "their token is kept" : "the last answer (no) stands");
            return kept;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return last == null || last;
        }
    }

    private void remember(String key, Boolean known, CompletableFuture<Boolean> asked) {
        synchronized (entries) {
            Entry entry = entries.get(key);
            if (entry == null || entry.asking() != asked) {
                return; // forgotten meanwhile
            }
            // a failed question keeps the last answer but may be asked again at the next use
            entries.put(key, known == null ? new Entry(entry.known(), entry.answeredAt(), null) : new Entry(known, clock.millis(), null));
        }
    }
}
