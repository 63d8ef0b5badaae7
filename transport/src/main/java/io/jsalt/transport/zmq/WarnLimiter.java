package io.jsalt.transport.zmq;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * One kind of warning that a peer can cause as often as it likes: logged at most once per ten seconds (with
 * how many were held back since), the rest at debug, so that a hostile peer cannot flood the log.
 */
final class WarnLimiter {
    private static final long EVERY_NANOS = 10_000_000_000L;
    private final Logger log;
    private final AtomicLong last = new AtomicLong(System.nanoTime() - EVERY_NANOS);
    private final AtomicLong heldBack = new AtomicLong();

    WarnLimiter(Logger log) {
        this.log = log;
    }

    void warn(String format, Object... args) {
        long now = System.nanoTime();
        long then = last.get();
        if (now - then >= EVERY_NANOS && last.compareAndSet(then, now)) {
            long held = heldBack.getAndSet(0);
            log.warn(held > 0 ? format + " (" + held + " more like it since the last warning)" : format, args);
        } else {
            heldBack.incrementAndGet();
            log.debug(format, args);
        }
    }
}
