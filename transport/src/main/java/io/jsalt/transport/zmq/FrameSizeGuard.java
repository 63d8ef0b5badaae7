package io.jsalt.transport.zmq;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import zmq.Msg;
import zmq.msg.MsgAllocator;
import zmq.msg.MsgAllocatorThreshold;

/**
 * Allocates the messages JeroMQ decodes on a bound socket, refusing a frame whose declared size is negative.
 * JeroMQ 0.6.0's decoder checks only that a ZMTP frame's 8-byte size is not above its limits, so a size
 * with the top bit set (a common scanner probe) reaches the allocator as a negative int; the default
 * allocator throws, the decoder is left half-way and the context's I/O thread spins on it forever, taking
 * every socket of the context with it and keeping its ports bound. Answering with an empty message keeps
 * the decoder consistent: before the handshake the peer is dropped as a protocol error, after it the empty
 * frame is what reaches the socket, and the ROUTER drops it as a malformed request.
 */
final class FrameSizeGuard implements MsgAllocator {
    private static final Logger log = LoggerFactory.getLogger(FrameSizeGuard.class);

    private final MsgAllocator allocator = new MsgAllocatorThreshold();
    private final String endpoint;

    FrameSizeGuard(String endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public Msg allocate(int size) {
        if (size < 0) {
            log.warn("refused a ZMTP frame with a negative size on {} (a known JeroMQ 0.6.0 killer)", endpoint);
            return new Msg(0);
        }
        return allocator.allocate(size);
    }
}
