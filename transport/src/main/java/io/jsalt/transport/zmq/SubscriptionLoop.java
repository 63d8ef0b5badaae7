package io.jsalt.transport.zmq;

import io.jsalt.transport.TransportException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * One thread that owns the sockets of up to {@link #CAPACITY} subscriptions and polls them all. Other
 * threads only queue additions and removals and wake the loop (a byte on a pipe it polls with the sockets):
 * sockets are created, read and closed on this thread alone. The loop polls every {@link #POLL_MS} while a
 * subscription has a time-bound step ahead (the nudges of a connection whose handshake is pending, the
 * check of a dropped one) and every {@link #IDLE_POLL_MS} otherwise: JeroMQ's poll costs ~0.1 ms of a
 * minion's CPU, and 50 of them a second were 6 of the 8 ms per second an idle jsalt-minion spent
 * ({@code jsalt-bench minion-cpu}, per-thread CPU from /proc).
 */
final class SubscriptionLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SubscriptionLoop.class);
    /**
     * Subscriptions per thread by default: enough to keep the thread count of a 10,000-minion swarm small. A
     * turn of the loop costs O(its subscriptions) (JeroMQ's poll asks each socket for its events and registers
     * its channel), and a publication to every subscriber wakes each loop about once per subscription: a host
     * of many minions that wants fan-outs fast gives its transport fewer per thread
     * ({@link io.jsalt.transport.Transport#createForManyMinions}).
     */
    static final int CAPACITY = 512;
    /** The poll interval while a subscription has a time-bound step ahead. */
    private static final int POLL_MS = 20;
    /** The poll interval when nothing but a publication, a connection event or a wake-up can happen. */
    static final long IDLE_POLL_MS = 1000;

    private final ZContext context;
    private final PollerNudge nudge;
    private final Thread thread;
    private final ConcurrentLinkedQueue<ZmqSubscription> additions = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ZmqSubscription> removals = new ConcurrentLinkedQueue<>();
    private final AtomicInteger assigned = new AtomicInteger();
    private final List<ZmqSubscription> active = new ArrayList<>();
    private volatile boolean running = true;
    private ZMQ.Poller poller;
    /** Other threads write a byte to wake the loop; the loop polls the source with its sockets. */
    private final Pipe wake;
    private final ByteBuffer drain = ByteBuffer.allocate(64);
    private final long idlePollMs;
    private final int capacity;

    SubscriptionLoop(ZContext context, PollerNudge nudge, int index) {
        this(context, nudge, index, IDLE_POLL_MS);
    }

    /** @param idlePollMs the poll interval when no subscription has a time-bound step ahead (tests make it long) */
    SubscriptionLoop(ZContext context, PollerNudge nudge, int index, long idlePollMs) {
        this(context, nudge, index, idlePollMs, CAPACITY);
    }

    /** @param capacity how many subscriptions this loop takes at most */
    SubscriptionLoop(ZContext context, PollerNudge nudge, int index, long idlePollMs, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a subscription loop takes at least one subscription, not " + capacity);
        }
        this.capacity = capacity;
        this.context = context;
        this.nudge = nudge;
        this.idlePollMs = idlePollMs;
        try {
            this.wake = Pipe.open();
            wake.source().configureBlocking(false);
            wake.sink().configureBlocking(false);
        } catch (IOException e) {
            throw new TransportException("cannot open the subscription loop's wake-up pipe", e);
        }
        this.thread = new Thread(this::run, "jsalt-sub-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    /** Reserves a place for one more subscription; false when full. */
    boolean reserve() {
        while (true) {
            int n = assigned.get();
            if (n >= capacity) {
                return false;
            }
            if (assigned.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void add(ZmqSubscription s) {
        additions.add(s);
        wakeUp();
    }

    void remove(ZmqSubscription s) {
        removals.add(s);
        wakeUp();
    }

    /** Ends the loop's wait now (a full pipe means a wake-up is pending already). */
    private void wakeUp() {
        LockSupport.unpark(thread); // the loop parks instead of polling while it has no socket
        try {
            wake.sink().write(ByteBuffer.wrap(WAKE));
        } catch (IOException e) {
            // closed: the loop has ended
        }
    }

    private static final byte[] WAKE = {1};

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
            closeQuietly(wake.source());
            closeQuietly(wake.sink());
        }
    }

    private static void closeQuietly(java.nio.channels.Channel c) {
        try {
            c.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }

    private void turn() {
        if (applyChanges()) {
            rebuildPoller();
        }
        if (active.isEmpty()) {
            LockSupport.parkNanos(idlePollMs * 1_000_000L); // add() and stop() unpark it
            return;
        }
        if (poller.poll(pollIntervalMs()) > 0) {
            if (poller.pollin(2 * active.size())) {
                drainWakeUps();
            }
            serveReadySockets();
        }
        nudgeIfAConnectionStalls();
        if (reopenAbandoned()) {
            rebuildPoller();
        }
    }

    /** Short while a subscription has a nudge or a dropped-connection check ahead; long otherwise. */
    private long pollIntervalMs() {
        for (ZmqSubscription s : active) {
            if (s.awaitsATimedStep()) {
                return POLL_MS;
            }
        }
        return idlePollMs;
    }

    private void drainWakeUps() {
        try {
            while (wake.source().read(drain.clear()) > 0) {
                // each byte only ended a wait: the queues say what to do
            }
        } catch (IOException e) {
            // closed under the loop: it is ending
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
        poller = context.createPoller(active.size() * 2 + 1);
        for (ZmqSubscription s : active) {
            poller.register(s.socket(), ZMQ.Poller.POLLIN);
            poller.register(s.monitorSocket(), ZMQ.Poller.POLLIN);
        }
        poller.register(wake.source(), ZMQ.Poller.POLLIN); // index 2 * active.size()
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
        wakeUp();
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
