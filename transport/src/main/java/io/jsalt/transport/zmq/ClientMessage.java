package io.jsalt.transport.zmq;

import java.util.ArrayList;
import java.util.List;
import org.zeromq.ZMQ;

/**
 * One message read from a client connection of the request port's ROUTER, holding on to its share of the
 * in-flight budget until a worker takes it or it is dropped: the frames are copied out of JeroMQ's buffers,
 * but a request waiting in the router's queue is memory a client made the master hold all the same.
 */
final class ClientMessage {
    private final List<byte[]> frames;
    private final List<BudgetedFrame> charged;
    private final boolean refused;

    private ClientMessage(List<byte[]> frames, List<BudgetedFrame> charged, boolean refused) {
        this.frames = frames;
        this.charged = charged;
        this.refused = refused;
    }

    /** The next whole message if one is waiting on {@code socket}, else null; a message's frames arrive together. */
    static ClientMessage receive(ZMQ.Socket socket) {
        zmq.Msg first = socket.recvMsg(ZMQ.DONTWAIT);
        if (first == null) {
            return null;
        }
        List<byte[]> frames = new ArrayList<>(3);
        List<BudgetedFrame> charged = new ArrayList<>(0);
        boolean refused = false;
        for (zmq.Msg frame = first; frame != null; frame = socket.hasReceiveMore() ? socket.recvMsg(0) : null) {
            refused |= frame instanceof RefusedFrame;
            frames.add(frame.data());
            if (frame instanceof BudgetedFrame budgeted) {
                charged.add(budgeted);
            }
        }
        return new ClientMessage(frames, charged, refused);
    }

    List<byte[]> frames() {
        return frames;
    }

    /** Whether a frame of it did not fit the in-flight budget (and so arrived empty): never to be served. */
    boolean refused() {
        return refused;
    }

    /** Gives this message's bytes back to the budget; later calls do nothing. */
    void release() {
        charged.forEach(BudgetedFrame::release);
    }
}
