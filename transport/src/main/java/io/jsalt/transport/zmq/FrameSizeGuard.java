package io.jsalt.transport.zmq;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import zmq.Msg;
import zmq.msg.MsgAllocator;
import zmq.msg.MsgAllocatorThreshold;

/**
 * Allocates the messages JeroMQ decodes on a socket: refuses a frame whose declared size is negative or
 * above the socket's limit and, with a budget, charges every frame larger than {@code unbudgetedBytes} to
 * it, refusing the frames that do not fit. A refused frame reaches the socket as an empty
 * {@link RefusedFrame}.
 * <p>
 * JeroMQ 0.6.0's decoder checks only that a ZMTP frame's 8-byte size is not above its limits, so a size
 * with the top bit set (a common scanner probe) reaches the allocator as a negative int; the default
 * allocator throws, the decoder is left half-way and the context's I/O thread spins on it forever, taking
 * every socket of the context with it and keeping its ports bound. Answering with an empty message keeps
 * the decoder consistent: before the handshake the peer is dropped as a protocol error, after it the empty
 * frame is what reaches the socket, and the ROUTER drops it as a malformed request.
 * <p>
 * The decoder also reserves a frame's whole declared size as soon as its header arrives, before a byte of
 * its body: a few idle connections each declaring the per-frame maximum would hold that much memory each.
 * The budget bounds what all connections together hold that way.
 */
final class FrameSizeGuard implements MsgAllocator {
    private static final Logger log = LoggerFactory.getLogger(FrameSizeGuard.class);
    /** At most one warning about refused frames this often, however many a peer sends. */
    private static final long WARN_EVERY_NANOS = 10_000_000_000L;
    /** JeroMQ's default: frames above it are allocated outside the heap (the socket reads into them directly). */
    private static final int DIRECT_ABOVE_BYTES = 1024 * 1024;

    private final MsgAllocator allocator = new MsgAllocatorThreshold(DIRECT_ABOVE_BYTES);
    private final String endpoint;
    private final long maxFrameBytes;
    private final InflightBudget budget;
    private final int unbudgetedBytes;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong lastWarnNanos = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    /** Refusing frames larger than {@code maxFrameBytes} (negative: no limit but the int range). */
    FrameSizeGuard(String endpoint, long maxFrameBytes) {
        this(endpoint, maxFrameBytes, null, Integer.MAX_VALUE);
    }

    FrameSizeGuard(String endpoint, long maxFrameBytes, InflightBudget budget, int unbudgetedBytes) {
        this.endpoint = endpoint;
        this.maxFrameBytes = maxFrameBytes < 0 ? Long.MAX_VALUE : maxFrameBytes;
        this.budget = budget;
        this.unbudgetedBytes = unbudgetedBytes;
    }

    @Override
    public Msg allocate(int size) {
        if (size < 0) {
            log.warn("refused a ZMTP frame with a negative size on {} (a known JeroMQ 0.6.0 killer)", endpoint);
            return new Msg(0);
        }
        if (size > maxFrameBytes) {
            // the socket's ZMQ_MAXMSGSIZE drops such a frame's connection, except when its 8-byte size has the
            // top bit set: JeroMQ 0.6.0 compares it as a negative long, which passes, then keeps its low 32 bits
            warnRefused(size, "above the " + maxFrameBytes + "-byte limit");
            return new RefusedFrame();
        }
        if (budget == null || size <= unbudgetedBytes) {
            return allocator.allocate(size);
        }
        if (!budget.tryReserve(size)) {
            warnRefused(size, "connections already hold " + budget.used() + " of the " + budget.capacity()
                    + " bytes allowed in frames still arriving (max_inflight_request_bytes)");
            return new RefusedFrame();
        }
        try {
            ByteBuffer buffer = size > DIRECT_ABOVE_BYTES ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
            return BudgetedFrame.over(buffer, budget);
        } catch (OutOfMemoryError e) {
            budget.release(size);
            warnRefused(size, "no memory left for it");
            return new RefusedFrame();
        }
    }

    /** How many frames were refused (too large, or for want of budget); for tests and health. */
    long refusedFrames() {
        return refused.get();
    }

    private void warnRefused(int size, String why) {
        long count = refused.incrementAndGet();
        long now = System.nanoTime();
        long last = lastWarnNanos.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarnNanos.compareAndSet(last, now)) {
            log.warn("refused a {}-byte frame on {}: {}; {} refused so far", size, endpoint, why, count);
        }
    }
}
