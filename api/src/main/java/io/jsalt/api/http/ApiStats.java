package io.jsalt.api.http;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * What {@code GET /stats} reports. salt-api answers CherryPy's own statistics ({@code cpstats}), whose
 * keys name CherryPy's internals; jsalt-api answers its own counters under one {@code jsalt-api} key, with
 * CherryPy's names where the meaning is the same ({@code Start Time}, {@code Uptime}, {@code Requests},
 * {@code Current Requests}). {@code Event Streams} counts the open {@code /events} and {@code /ws} streams,
 * {@code Event Subscriptions} the master event subscriptions they share (one per token streaming), {@code Slow
 * Streams Cut} the streams ended since the start because their client fell too far behind.
 */
final class ApiStats {
    private final Clock clock;
    private final Instant started;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong current = new AtomicLong();
    private final AtomicLong streams = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong slowStreams = new AtomicLong();
    private final IntSupplier subscriptions;

    /** @param subscriptions the master event subscriptions the streams share now */
    ApiStats(Clock clock, IntSupplier subscriptions) {
        this.clock = clock;
        this.subscriptions = subscriptions;
        this.started = clock.instant();
    }

    void requestStarted() {
        requests.incrementAndGet();
        current.incrementAndGet();
    }

    void requestEnded(int status) {
        current.decrementAndGet();
        if (status >= 500) {
            errors.incrementAndGet();
        }
    }

    void streamOpened() {
        streams.incrementAndGet();
    }

    void streamClosed() {
        streams.decrementAndGet();
    }

    /** A stream's client fell too far behind and was cut off. */
    void slowStreamCut() {
        slowStreams.incrementAndGet();
    }

    Map<String, Object> snapshot() {
        Map<String, Object> api = new LinkedHashMap<>();
        api.put("Start Time", started.toEpochMilli() / 1000.0);
        api.put("Uptime", (clock.millis() - started.toEpochMilli()) / 1000.0);
        api.put("Requests", requests.get());
        api.put("Current Requests", current.get());
        api.put("Event Streams", streams.get());
        api.put("Event Subscriptions", subscriptions.getAsInt());
        api.put("Slow Streams Cut", slowStreams.get());
        api.put("Server Errors", errors.get());
        return Map.of("jsalt-api", api);
    }
}
