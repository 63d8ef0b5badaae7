package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.TransportException;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A REQ socket to the master's request port, as Salt's minion uses. A REQ socket that missed its reply
 * is stuck, so a timeout closes it and the next request gets a fresh one; with {@link #closeWhenIdle} the
 * socket is also closed (by the transport's idle timer) once unused for that long. Requests are serialised
 * by a lock; the socket is only touched while holding it. The idle timer never waits for the lock: a
 * client busy with a request is not idle, and the timer serves every client of the transport.
 */
final class ZmqRequestClient implements RequestClient {
    /**
     * While the first answer on a new connection is awaited: when to nudge the I/O thread ({@link PollerNudge}),
     * then every {@link #NUDGE_EVERY_MS} (a connect can complete late, after a SYN was retried).
     */
    private static final long[] NUDGE_AFTER_MS = {20, 60, 150, 400, 1000};
    private static final long NUDGE_EVERY_MS = 500;
    /** No reply size limit but JeroMQ's own. */
    static final long ANY_SIZE = -1;

    private final ZContext context;
    /** How often a request in flight looks whether its transport is closing. */
    private static final long CLOSING_CHECK_MS = 100;

    private final String endpoint;
    private final IdleTimer idleTimer;
    private final PollerNudge nudge;
    private final int handshakeIvlMs;
    private final long maxReplyBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private ZMQ.Socket socket;
    /** Set by {@link #close} and by the transport closing; a request in flight then drops its socket itself. */
    private volatile boolean closed;
    /** Set by the transport closing: a request in flight gives up within {@link #CLOSING_CHECK_MS}. */
    private volatile boolean transportClosing;
    private volatile Runnable onClose = () -> { };
    private long idleCloseMs = -1;
    /** Counts the requests made; an idle check closes the socket only if none came since it was scheduled. */
    private long uses;

    ZmqRequestClient(ZContext context, String endpoint, IdleTimer idleTimer, PollerNudge nudge) {
        this(context, endpoint, idleTimer, nudge, Endpoints.HANDSHAKE_IVL_MS);
    }

    /** With a handshake timer of {@code handshakeIvlMs} (0: none, so only the nudges end a stall; for tests). */
    ZmqRequestClient(ZContext context, String endpoint, IdleTimer idleTimer, PollerNudge nudge, int handshakeIvlMs) {
        this(context, endpoint, idleTimer, nudge, handshakeIvlMs, ANY_SIZE);
    }

    /**
     * Dropping the connection, before allocating anything, on a reply frame declaring more than
     * {@code maxReplyBytes} ({@link #ANY_SIZE}: no limit but JeroMQ's); the request then times out.
     */
    ZmqRequestClient(ZContext context, String endpoint, IdleTimer idleTimer, PollerNudge nudge, int handshakeIvlMs,
            long maxReplyBytes) {
        this.context = context;
        this.endpoint = endpoint;
        this.idleTimer = idleTimer;
        this.nudge = nudge;
        this.handshakeIvlMs = handshakeIvlMs;
        this.maxReplyBytes = maxReplyBytes;
    }

    @Override
    public void closeWhenIdle(Duration idle) {
        lock.lock();
        try {
            idleCloseMs = Math.max(0, idle.toMillis());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public byte[] request(byte[] payload, Duration timeout) {
        lock.lock();
        try {
            if (closed) {
                throw new TransportException("request client to " + endpoint + " is closed");
            }
            uses++;
            try {
                return exchange(payload, timeout);
            } finally {
                if (closed) {
                    discardSocket(); // the transport closed meanwhile: this thread owns the socket, so it closes it
                } else {
                    scheduleIdleClose();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private byte[] exchange(byte[] payload, Duration timeout) {
        boolean fresh = socket == null;
        ZMQ.Socket s = socket();
        if (!s.send(payload, 0)) {
            discardSocket();
            throw new TransportException("cannot send to " + endpoint);
        }
        ZMQ.Poller poller = context.createPoller(1);
        try {
            poller.register(s, ZMQ.Poller.POLLIN);
            long start = System.nanoTime();
            long deadline = start + timeout.toNanos();
            long nextNudgeMs = fresh ? NUDGE_AFTER_MS[0] : Long.MAX_VALUE;
            while (true) {
                long now = System.nanoTime();
                long left = Math.max(0, (deadline - now) / 1_000_000);
                long elapsedMs = (now - start) / 1_000_000;
                if (elapsedMs >= nextNudgeMs) {
                    nudge.nudge(); // a new connection may be stuck before its handshake
                    nextNudgeMs = PollerNudge.nextNudgeMs(NUDGE_AFTER_MS, elapsedMs, NUDGE_EVERY_MS);
                    continue;
                }
                // bounded so that a closing transport is noticed even when JeroMQ's ETERM wake-up of this poll is
                // lost (seen about once in thousands of closes: the close then waited out its whole close wait)
                left = Math.min(Math.min(left, nextNudgeMs - elapsedMs), CLOSING_CHECK_MS);
                int ready = poller.poll(left);
                if (ready < 0 || transportClosing) {
                    // the socket context is terminating (ETERM): the transport is closing
                    discardSocket();
                    throw new TransportException("request to " + endpoint + " abandoned: the transport is closed");
                }
                if (ready > 0 && poller.pollin(0)) {
                    byte[] reply = s.recv(0);
                    while (s.hasReceiveMore()) {
                        reply = s.recv(0);
                    }
                    return reply;
                }
                if (System.nanoTime() >= deadline) {
                    discardSocket();
                    throw new RequestTimeoutException("no answer from " + endpoint + " within " + timeout.toMillis() + " ms");
                }
            }
        } finally {
            poller.close();
        }
    }

    private void scheduleIdleClose() {
        if (socket == null || idleCloseMs < 0) {
            return;
        }
        if (idleCloseMs == 0) {
            discardSocket();
            return;
        }
        long scheduledAt = uses;
        idleTimer.schedule(() -> closeIfUnusedSince(scheduledAt), idleCloseMs);
    }

    private void closeIfUnusedSince(long scheduledAt) {
        if (!lock.tryLock()) {
            return; // in use: that request schedules the next check
        }
        try {
            if (uses == scheduledAt) {
                discardSocket();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether a socket (and so a connection to the master) is open now; for tests. */
    boolean isConnected() {
        lock.lock();
        try {
            return socket != null;
        } finally {
            lock.unlock();
        }
    }

    private ZMQ.Socket socket() {
        if (socket == null) {
            socket = context.createSocket(SocketType.REQ);
            Endpoints.prepareConnecting(socket);
            socket.setHandshakeIvl(handshakeIvlMs);
            socket.setMaxMsgSize(maxReplyBytes);
            socket.setMsgAllocator(new FrameSizeGuard(endpoint, maxReplyBytes));
            socket.connect(endpoint);
        }
        return socket;
    }

    private void discardSocket() {
        if (socket != null) {
            context.destroySocket(socket);
            socket = null;
        }
    }

    /** Runs {@code action} once this client is closed (the transport forgets it). */
    void onClose(Runnable action) {
        onClose = action;
    }

    /**
     * The transport is closing: a request in flight is woken by the context's termination (ETERM) and
     * closes the socket on its own thread; an idle socket is closed here. Never waits for a request.
     */
    void closeFromTransport() {
        closed = true;
        transportClosing = true;
        if (lock.tryLock()) {
            try {
                discardSocket();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            discardSocket();
        } finally {
            lock.unlock();
        }
        onClose.run();
    }
}
