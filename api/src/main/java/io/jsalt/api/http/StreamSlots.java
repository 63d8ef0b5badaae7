package io.jsalt.api.http;

import java.util.concurrent.Semaphore;

/**
 * The bound on event streams open at once, {@code GET /events} and {@code GET /ws} together. Each stream holds
 * one of the HTTP server's {@link HttpFront#WORKERS} worker threads and one reader of the master's event socket
 * while it lasts; {@link #MAX} leaves workers for ordinary requests (past it a new stream is refused with 503,
 * rather than waiting for a worker and starving every other request).
 */
final class StreamSlots {
    static final int MAX = 56;

    private final Semaphore slots = new Semaphore(MAX);
    private final ApiStats stats;

    StreamSlots(ApiStats stats) {
        this.stats = stats;
    }

    /** Takes a slot; false when {@link #MAX} streams are open. Every true is followed by one {@link #release}. */
    boolean tryAcquire() {
        if (!slots.tryAcquire()) {
            return false;
        }
        stats.streamOpened();
        return true;
    }

    void release() {
        stats.streamClosed();
        slots.release();
    }
}
