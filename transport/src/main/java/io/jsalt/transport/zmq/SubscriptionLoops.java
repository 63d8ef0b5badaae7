package io.jsalt.transport.zmq;

import io.jsalt.transport.TransportException;
import java.util.ArrayList;
import java.util.List;
import org.zeromq.ZContext;

/** The subscription loops of one transport: a new loop starts when every existing one is full. */
final class SubscriptionLoops implements AutoCloseable {
    private final ZContext context;
    private final PollerNudge nudge;
    private final List<SubscriptionLoop> loops = new ArrayList<>();
    private final int perLoop;
    private boolean stopped;

    SubscriptionLoops(ZContext context, PollerNudge nudge) {
        this(context, nudge, SubscriptionLoop.CAPACITY);
    }

    /** @param perLoop subscriptions per loop thread at most */
    SubscriptionLoops(ZContext context, PollerNudge nudge, int perLoop) {
        this.context = context;
        this.nudge = nudge;
        this.perLoop = perLoop;
    }

    /** A running loop with room for one more subscription, which is reserved for the caller. */
    synchronized SubscriptionLoop reserve() {
        if (stopped) {
            throw new TransportException("the transport is closed");
        }
        loops.removeIf(l -> !l.isRunning());
        for (SubscriptionLoop loop : loops) {
            if (loop.reserve()) {
                return loop;
            }
        }
        SubscriptionLoop loop = new SubscriptionLoop(context, nudge, loops.size(), SubscriptionLoop.IDLE_POLL_MS, perLoop);
        loop.reserve();
        loops.add(loop);
        return loop;
    }

    /** Tells every loop to close its sockets and end, and starts no new one; does not wait. */
    synchronized void stop() {
        stopped = true;
        loops.forEach(SubscriptionLoop::stop);
    }

    @Override
    public synchronized void close() {
        stopped = true;
        loops.forEach(SubscriptionLoop::close);
        loops.clear();
    }
}
