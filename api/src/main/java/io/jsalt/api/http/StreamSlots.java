package io.jsalt.api.http;

import java.util.concurrent.Semaphore;

/**
 * The bound on event streams open at once, {@code GET /events} and {@code GET /ws} together
 * ({@code max_event_streams}, {@link io.jsalt.api.events.EventLimits}). A stream holds no thread: its connection
 * and a bounded buffer in its token's shared subscription ({@link io.jsalt.api.events.EventHub}, itself bounded
 * on the subscriptions). Past the bound a new stream is refused with 503.
 */
final class StreamSlots {
    private final int max;
    private final Semaphore slots;
    private final ApiStats stats;

    StreamSlots(int max, ApiStats stats) {
        this.max = max;
        this.slots = new Semaphore(max);
        this.stats = stats;
    }

    int max() {
        return max;
    }

    /** Takes a slot; false when {@link #max} streams are open. Every true is followed by one {@link #release}. */
    boolean tryAcquire() {
        if (!slots.tryAcquire()) {
            return false;
        }
        stats.streamOpened();
        return true;
    }

    /** A stream whose client fell too far behind was cut off: counted for {@code /stats}. */
    void slowStreamCut() {
        stats.slowStreamCut();
    }

    void release() {
        stats.streamClosed();
        slots.release();
    }
}
