package io.jsalt.transport.zmq;

import java.util.ArrayList;
import java.util.List;
import org.zeromq.ZContext;

/** The subscription loops of one transport: a new loop starts when every existing one is full. */
final class SubscriptionLoops implements AutoCloseable {
    private final ZContext context;
    private final PollerNudge nudge;
    private final List<SubscriptionLoop> loops = new ArrayList<>();

    SubscriptionLoops(ZContext context, PollerNudge nudge) {
        this.context = context;
        this.nudge = nudge;
    }

    /** A running loop with room for one more subscription, which is reserved for the caller. */
    synchronized SubscriptionLoop reserve() {
        loops.removeIf(l -> !l.isRunning());
        for (SubscriptionLoop loop : loops) {
            if (loop.reserve()) {
                return loop;
            }
        }
        SubscriptionLoop loop = new SubscriptionLoop(context, nudge, loops.size());
        loop.reserve();
        loops.add(loop);
        return loop;
    }

    @Override
    public synchronized void close() {
        loops.forEach(SubscriptionLoop::close);
        loops.clear();
    }
}
