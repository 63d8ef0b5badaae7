package io.jsalt.transport.zmq;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * One thread that owns the sockets of up to {@link #CAPACITY} subscriptions and polls them all. Other
 * threads only queue additions and removals, which the loop picks up within one poll interval: sockets
 * are created, read and closed on this thread alone.
 */
final class SubscriptionLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SubscriptionLoop.class);
    /** Subscriptions per thread: enough to keep the thread count of a 10,000-minion swarm small. */
    static final int CAPACITY = 512;
    /** How long a queued addition or removal may wait for the loop. */
    private static final int POLL_MS = 20;

    private final ZContext context;
    private final PollerNudge nudge;
    private final Thread thread;
    private final ConcurrentLinkedQueue<ZmqSubscription> additions = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ZmqSubscription> removals = new ConcurrentLinkedQueue<>();
    private final AtomicInteger assigned = new AtomicInteger();
    private final List<ZmqSubscription> active = new ArrayList<>();
    private volatile boolean running = true;
    private ZMQ.Poller poller;

    SubscriptionLoop(ZContext context, PollerNudge nudge, int index) {
        this.context = context;
        this.nudge = nudge;
        this.thread = new Thread(this::run, "jsalt-sub-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    /** Reserves a place for one more subscription; false when full. */
    boolean reserve() {
        while (true) {
            int n = assigned.get();
            if (n >= CAPACITY) {
                return false;
            }
            if (assigned.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void add(ZmqSubscription s) {
        additions.add(s);
    }

    void remove(ZmqSubscription s) {
        removals.add(s);
    }

    boolean isLoopThread() {
        return Thread.currentThread() == thread;
    }

    boolean isRunning() {
        return running && thread.isAlive();
    }

    private void run() {
        try {
            while (running) {
                try {
                    turn();
                } catch (Error e) {
                    // memory ran short for a moment (a burst of big publications): the sockets are fine
                    log.warn("subscription loop {}: {}", thread.getName(), e.toString());
                }
            }
        } catch (RuntimeException e) {
            // the context was closed under the loop (ETERM, a closed selector), or JeroMQ failed
            if (running) {
                log.error("subscription loop {} stopped: {}", thread.getName(), e.toString());
            }
        } finally {
            closePoller();
            active.forEach(this::releaseQuietly);
            active.clear();
            ZmqSubscription s;
            while ((s = additions.poll()) != null) {
                s.release(context);
            }
            running = false;
        }
    }

    private void turn() {
        if (applyChanges()) {
            rebuildPoller();
        }
        if (active.isEmpty()) {
            java.util.concurrent.locks.LockSupport.parkNanos(POLL_MS * 1_000_000L);
            return;
        }
        if (poller.poll(POLL_MS) > 0) {
            serveReadySockets();
        }
        nudgeIfAConnectionStalls();
        if (reopenAbandoned()) {
            rebuildPoller();
        }
    }

    /** Reconnects the subscriptions whose connection JeroMQ dropped for good; true when any was. */
    private boolean reopenAbandoned() {
        long now = System.nanoTime();
        boolean reopened = false;
        for (ZmqSubscription s : active) {
            if (!s.isClosed() && s.abandoned(now)) {
                s.reopen(context);
                reopened = true;
            }
        }
        return reopened;
    }

    /** Applies queued additions and removals; true when the set of sockets changed. */
    private boolean applyChanges() {
        boolean changed = false;
        ZmqSubscription s;
        while ((s = additions.poll()) != null) {
            changed = true;
            if (s.isClosed()) {
                s.release(context);
                assigned.decrementAndGet();
                continue;
            }
            try {
                s.open(context);
                active.add(s);
            } catch (RuntimeException e) {
                log.error("cannot subscribe to {}: {}", s.endpoint(), e.toString());
                releaseQuietly(s);
                assigned.decrementAndGet();
            }
        }
        while ((s = removals.poll()) != null) {
            if (active.remove(s)) {
                changed = true;
                releaseQuietly(s);
                assigned.decrementAndGet();
            }
        }
        return changed;
    }

    private void rebuildPoller() {
        closePoller();
        if (active.isEmpty()) {
            return;
        }
        poller = context.createPoller(active.size() * 2);
        for (ZmqSubscription s : active) {
            poller.register(s.socket(), ZMQ.Poller.POLLIN);
            poller.register(s.monitorSocket(), ZMQ.Poller.POLLIN);
        }
    }

    private void serveReadySockets() {
        for (int i = 0; i < active.size(); i++) {
            ZmqSubscription s = active.get(i);
            if (s.isClosed()) {
                continue; // its removal is queued
            }
            try {
                if (poller.pollin(2 * i + 1)) {
                    s.onMonitorReadable();
                }
                if (poller.pollin(2 * i)) {
                    s.onReadable();
                }
            } catch (ZMQException e) {
                throw e;
            } catch (RuntimeException | Error e) {
                // one subscription's trouble (its listener, a message too big for memory) costs one turn of
                // it, never the subscription nor the others this thread serves
                log.warn("subscription to {}: {}", s.endpoint(), e.toString());
            }
        }
    }

    /** One nudge serves every subscription of the context that is due one. */
    private void nudgeIfAConnectionStalls() {
        long now = System.nanoTime();
        boolean due = false;
        for (ZmqSubscription s : active) {
            due |= s.nudgeDue(now);
        }
        if (due) {
            nudge.nudge();
        }
    }

    private void releaseQuietly(ZmqSubscription s) {
        try {
            s.release(context);
        } catch (RuntimeException e) {
            log.debug("closing the sockets of a subscription to {}: {}", s.endpoint(), e.toString());
        }
    }

    private void closePoller() {
        if (poller != null) {
            poller.close();
            poller = null;
        }
    }

    /** Tells the loop to close every socket it owns and end; does not wait. */
    void stop() {
        running = false;
    }

    /** Stops the loop and closes every socket it owns; waits up to 2 s. */
    @Override
    public void close() {
        stop();
        if (!isLoopThread()) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
