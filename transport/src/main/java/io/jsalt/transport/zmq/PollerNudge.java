package io.jsalt.transport.zmq;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Works around a race in JeroMQ 0.6.0's I/O poller (zeromq/jeromq pull request 1022, not released): when
 * a TCP connect completes, the connecter's selection key is cancelled and the new stream engine is added
 * in the same pass over the poll set, so the engine's channel is left unregistered. The connection then
 * sends no ZMTP greeting and sits until the handshake timer tears it down: measured here, 2 s on 40 % of
 * {@code jsalt} runs (a cold JVM). Any later change to the poll set makes the poller register every
 * handle again, and by then the old key is gone, so binding and closing a throw-away loopback listener
 * on the same context (one I/O thread) ends the stall. Nothing is sent to anyone. One per context; called
 * from the threads waiting on requests and from the subscription loops, each creating and closing its own
 * throw-away socket.
 */
final class PollerNudge {
    private static final Logger log = LoggerFactory.getLogger(PollerNudge.class);
    /**
     * One nudge re-registers every handle of the context's I/O thread, so it serves every stalled connection
     * at once; more often than this would only make the poller walk its whole poll set again and again (a
     * swarm JVM holds thousands of connections on one context).
     */
    private static final long MIN_INTERVAL_NANOS = 20_000_000L;

    private final ZContext context;
    private final AtomicLong last = new AtomicLong(System.nanoTime() - MIN_INTERVAL_NANOS);

    PollerNudge(ZContext context) {
        this.context = context;
    }

    /**
     * When to nudge next on a connection awaited for {@code elapsedMs}: the first point of {@code schedule}
     * after it (a late wake-up skips the points it overslept), then every {@code thenEveryMs}, or never
     * ({@link Long#MAX_VALUE}) when that is 0.
     */
    static long nextNudgeMs(long[] schedule, long elapsedMs, long thenEveryMs) {
        for (long at : schedule) {
            if (at > elapsedMs) {
                return at;
            }
        }
        return thenEveryMs > 0 ? elapsedMs + thenEveryMs : Long.MAX_VALUE;
    }

    void nudge() {
        long now = System.nanoTime();
        long previous = last.get();
        if (now - previous < MIN_INTERVAL_NANOS || !last.compareAndSet(previous, now)) {
            return; // another nudge just ran, or is running
        }
        ZMQ.Socket listener = null;
        try {
            listener = context.createSocket(SocketType.PAIR);
            listener.setLinger(0);
            listener.bind("tcp://127.0.0.1:*");
        } catch (RuntimeException e) {
            // best effort (no socket or port to spare, a closing context): the handshake timer still ends a stall
            log.debug("poller nudge failed: {}", e.toString());
        } finally {
            if (listener != null) {
                context.destroySocket(listener);
            }
        }
    }
}
