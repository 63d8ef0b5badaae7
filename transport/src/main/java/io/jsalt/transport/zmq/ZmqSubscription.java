package io.jsalt.transport.zmq;

import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.Subscription;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * A SUB socket and its monitor, owned by a {@link SubscriptionLoop} thread shared with other subscriptions
 * of the same transport (a JVM hosting thousands of minions cannot spend a thread on each). The loop
 * thread creates, reads and closes the sockets, hands each payload frame to the listener and the socket
 * monitor's handshake and disconnect events to the connection listener; listeners run on that thread and
 * must only hand the work on.
 */
final class ZmqSubscription implements Subscription {
    private static final Logger log = LoggerFactory.getLogger(ZmqSubscription.class);
    /** Frames read from one socket per turn of the loop, so one busy publisher cannot starve the others. */
    private static final int FRAMES_PER_TURN = 64;
    /**
     * After a TCP connect, when to nudge the I/O thread ({@link PollerNudge}) while the handshake has not
     * finished: the race leaves some fresh connections silent (1-6 % in zeromq/jeromq PR 1022, more under
     * load). After the last, the handshake timer ({@link Endpoints#SUBSCRIPTION_HANDSHAKE_IVL_MS}) ends
     * what is left.
     */
    private static final long[] NUDGE_AFTER_CONNECT_MS = {20, 60, 150, 400, 1000, 2000, 4000};
    /** A dropped connection without a retry reported this long after is one JeroMQ gave up on. */
    private static final long ABANDONED_AFTER_NANOS = 1_000_000_000L;

    private final String endpoint;
    private final List<byte[]> topics;
    private final PublicationListener listener;
    private final SubscriptionLoop loop;
    /** A publication frame declaring more gets the connection dropped before anything is allocated. */
    private final long maxPublicationBytes;
    private final CountDownLatch connected = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean closed;
    private volatile ConnectionListener connectionListener;
    // touched by the loop thread only
    private ZMQ.Socket sub;
    private ZMQ.Socket monitor;
    /** Whether the current connection finished its handshake. */
    private boolean handshaken;
    /** When the current connection's TCP connect completed, while its handshake is awaited; else -1. */
    private long connectedAtNanos = -1;
    private long nextNudgeMs;
    /** When the connection was dropped, until a retry (or a new connection) is reported; else -1. */
    private long disconnectedAtNanos = -1;

    private ZmqSubscription(String endpoint, List<byte[]> topics, PublicationListener listener, SubscriptionLoop loop,
            long maxPublicationBytes) {
        this.endpoint = endpoint;
        this.topics = List.copyOf(topics);
        this.listener = listener;
        this.loop = loop;
        this.maxPublicationBytes = maxPublicationBytes;
    }

    static ZmqSubscription start(SubscriptionLoop loop, String endpoint, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        ZmqSubscription s = new ZmqSubscription(endpoint, topics, listener, loop, maxPublicationBytes);
        loop.add(s);
        return s;
    }

    /** On the loop thread: creates and connects the sockets. */
    void open(ZContext context) {
        sub = context.createSocket(SocketType.SUB);
        monitor = context.createSocket(SocketType.PAIR);
        Endpoints.prepareConnecting(sub);
        sub.setHandshakeIvl(Endpoints.SUBSCRIPTION_HANDSHAKE_IVL_MS);
        sub.setRcvHWM(100_000);
        // the publisher is the master, or whoever stands between: its frame headers are not to be trusted
        sub.setMaxMsgSize(maxPublicationBytes);
        sub.setMsgAllocator(new FrameSizeGuard(endpoint, maxPublicationBytes));
        if (topics.isEmpty()) {
            sub.subscribe(new byte[0]);
        } else {
            topics.forEach(sub::subscribe);
        }
        // a new name each time: a closed socket's monitor endpoint may still be bound for a moment
        String monitorEndpoint = "inproc://jsalt-sub-monitor-" + UUID.randomUUID();
        sub.monitor(monitorEndpoint, ZMQ.EVENT_CONNECTED | ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED
                | ZMQ.EVENT_CONNECT_RETRIED | ZMQ.EVENT_CONNECT_DELAYED);
        monitor.connect(monitorEndpoint);
        sub.connect(endpoint);
    }

    ZMQ.Socket socket() {
        return sub;
    }

    ZMQ.Socket monitorSocket() {
        return monitor;
    }

    String endpoint() {
        return endpoint;
    }

    boolean isClosed() {
        return closed;
    }

    /** On the loop thread: the monitor socket is readable. */
    void onMonitorReadable() {
        ZMQ.Event event = ZMQ.Event.recv(monitor, ZMQ.DONTWAIT);
        if (event == null || closed) {
            return;
        }
        ConnectionListener l = connectionListener;
        try {
            if (event.getEvent() == ZMQ.EVENT_CONNECT_RETRIED || event.getEvent() == ZMQ.EVENT_CONNECT_DELAYED) {
                disconnectedAtNanos = -1;
            } else if (event.getEvent() == ZMQ.EVENT_CONNECTED) {
                disconnectedAtNanos = -1;
                connectedAtNanos = System.nanoTime();
                nextNudgeMs = NUDGE_AFTER_CONNECT_MS[0];
            } else if (event.getEvent() == ZMQ.EVENT_HANDSHAKE_PROTOCOL) {
                connectedAtNanos = -1;
                handshaken = true;
                connected.countDown();
                if (l != null) {
                    l.onConnected();
                }
            } else if (event.getEvent() == ZMQ.EVENT_DISCONNECTED) {
                connectedAtNanos = -1;
                disconnectedAtNanos = System.nanoTime();
                // JeroMQ reports DISCONNECTED for attempts that never finished their handshake too (a
                // publisher too busy to answer in time); nothing was lost then, and a minion told so would
                // sign in again once connected, adding to the load that made it fail
                if (handshaken) {
                    handshaken = false;
                    if (l != null) {
                        l.onDisconnected();
                    }
                }
            }
        } catch (RuntimeException e) {
            log.warn("connection listener failed: {}", e.toString());
        }
    }

    /**
     * On the loop thread: whether this subscription's connection is past a point of its nudge schedule
     * without a handshake; each point counts once.
     */
    /**
     * On the loop thread: whether a step of this subscription is due at a time rather than on an event (a nudge
     * of a connection whose handshake has not finished, the check of a dropped one): the loop then polls often.
     */
    boolean awaitsATimedStep() {
        return connectedAtNanos >= 0 || disconnectedAtNanos >= 0;
    }

    boolean nudgeDue(long nowNanos) {
        if (connectedAtNanos < 0) {
            return false;
        }
        long elapsedMs = (nowNanos - connectedAtNanos) / 1_000_000L;
        if (elapsedMs < nextNudgeMs) {
            return false;
        }
        nextNudgeMs = PollerNudge.nextNudgeMs(NUDGE_AFTER_CONNECT_MS, elapsedMs, 0);
        return true;
    }

    /**
     * On the loop thread: whether the connection was dropped and JeroMQ will not make another. JeroMQ ends a
     * connecting socket's session for good after a protocol error, such as a frame above the size limit
     * (libzmq does the same): a rogue or on-path publisher would cut the minion off with one big frame. A
     * connection lost any other way is followed at once by a retry event.
     */
    boolean abandoned(long nowNanos) {
        return disconnectedAtNanos >= 0 && nowNanos - disconnectedAtNanos > ABANDONED_AFTER_NANOS;
    }

    /** On the loop thread: closes the sockets and opens new ones, which connect again. */
    void reopen(ZContext context) {
        log.info("connecting to {} again: the publisher's connection was dropped for breaking the protocol "
                + "(a frame above {} bytes?)", endpoint, maxPublicationBytes);
        closeSockets(context);
        disconnectedAtNanos = -1;
        connectedAtNanos = -1;
        open(context);
    }

    /**
     * On the loop thread: the SUB socket is readable. Whatever one publication throws (a listener's bug, or
     * memory running out while it is copied) costs that publication and one log line: the subscription and
     * the loop, which serves other subscriptions too, go on.
     */
    void onReadable() {
        for (int i = 0; i < FRAMES_PER_TURN && !closed; i++) {
            byte[] frame;
            try {
                frame = sub.recv(ZMQ.DONTWAIT);
                if (frame == null) {
                    return;
                }
                while (sub.hasReceiveMore()) {
                    frame = sub.recv(0); // [topic, payload] with zmq_filtering: keep the payload
                }
            } catch (ZMQException e) {
                throw e; // the socket or its context is gone: the loop decides
            } catch (RuntimeException | Error e) {
                dropped(e);
                continue;
            }
            if (frame.length == 0) {
                continue; // a frame refused for its size ({@link RefusedFrame}); no publication is empty
            }
            deliver(frame);
        }
    }

    private void deliver(byte[] payload) {
        try {
            listener.onPublication(payload);
        } catch (RuntimeException | Error e) {
            dropped(e);
        }
    }

    private void dropped(Throwable e) {
        log.warn("dropped a publication from {}: {}", endpoint, e.toString());
    }

    /** On the loop thread: closes the sockets; the subscription is gone from the loop. */
    void release(ZContext context) {
        try {
            closeSockets(context);
        } finally {
            released.countDown();
        }
    }

    /**
     * The SUB socket's monitoring stops first, its reader goes last: JeroMQ writes a monitor event from the I/O
     * thread with a blocking send, so an event of a socket still connecting (a master that went away retries every
     * reconnect interval) sent once the reader is gone blocks the context's I/O thread for ever, and with it every
     * socket of the context (seen: a failover minion's sign-ins to the next master never left the host).
     */
    private void closeSockets(ZContext context) {
        try {
            if (sub != null && monitor != null) {
                while (ZMQ.Event.recv(monitor, ZMQ.DONTWAIT) != null) {
                    // drained, so that no event the I/O thread is writing now waits on a full pipe
                }
                sub.monitor(null, 0);
            }
            if (sub != null) {
                context.destroySocket(sub);
            }
            if (monitor != null) {
                context.destroySocket(monitor);
            }
        } finally {
            monitor = null;
            sub = null;
        }
    }

    @Override
    public boolean awaitConnected(Duration timeout) {
        try {
            return connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void connectionListener(ConnectionListener listener) {
        this.connectionListener = listener;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        loop.remove(this);
        if (!loop.isLoopThread() && loop.isRunning()) {
            try {
                released.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
