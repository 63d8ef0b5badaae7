package io.jsalt.transport.zmq;

import io.jsalt.transport.TransportException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import zmq.ZError;

/**
 * A socket context that ends the way JeroMQ needs, and never waits for ever doing so. {@link ZContext#close()}
 * closes every socket still open from the thread calling it, then terminates: a socket still in use by its
 * own thread is then closed by two threads, and JeroMQ's reaper, processing that socket's commands while
 * its owner still does, dies ({@code slots[tid]} null, an assertion in {@code Pipe.processPipeTermAck};
 * zeromq/jeromq issue 983) and the termination waits for it for ever. Here {@link #close()} closes no
 * socket: it terminates the context, which makes every blocking call on a socket still open fail with
 * ETERM, so each owner thread closes its own socket and the termination completes (the reaper's other
 * way to die, both ends of an inproc pipe closing at once, is kept away by the owners' closing order,
 * {@link ZmqTransport#close()}, and by the request server's hand-off to its workers through Java queues
 * rather than inproc sockets, {@link WorkerHandOff}). The wait is bounded:
 * past it one WARN line names the sockets still open (by type and the thread that opened them) and the
 * context is left to finish on a daemon thread of its own. Exceptions on JeroMQ's own threads are logged
 * in one line, never printed as stack traces (its default), and kept for tests.
 */
final class SocketContext extends ZContext {
    private static final Logger log = LoggerFactory.getLogger(SocketContext.class);
    /** How long a close waits for the owner threads to close their sockets: a handler still running is given this long. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /**
     * JeroMQ refuses a context's 1,024th socket (EMFILE, as libzmq's ZMQ_MAX_SOCKETS), which caps a JVM
     * hosting minions at about 340 (three sockets each); the process's file descriptors (4 per socket)
     * are the real limit, so the context's is set above it.
     */
    static final int MAX_SOCKETS = 32_768;

    private final String name;
    private final Duration closeWait;
    /** Each open socket and who opened it, for the WARN line of a close that does not finish. */
    private final Map<ZMQ.Socket, String> open = new ConcurrentHashMap<>();
    private final List<String> threadFailures = new CopyOnWriteArrayList<>();
    private final List<String> notifications = new CopyOnWriteArrayList<>();
    private final AtomicInteger gone = new AtomicInteger();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile List<String> leftOpen = List.of();
    private volatile Thread terminator;

    SocketContext(String name, int ioThreads) {
        this(name, ioThreads, CLOSE_WAIT);
    }

    SocketContext(String name, int ioThreads, Duration closeWait) {
        this(name, ioThreads, closeWait, MAX_SOCKETS);
    }

    /** {@code maxSockets}: the context's slots, allocated (one boxed index each) when its first socket is made. */
    SocketContext(String name, int ioThreads, Duration closeWait, int maxSockets) {
        super(ioThreads);
        this.name = name;
        this.closeWait = closeWait;
        ZMQ.Context c = getContext();
        c.setMaxSockets(maxSockets);
        // set before the first socket starts the context's threads, which take the handlers then
        c.setUncaughtExceptionHandler((thread, e) -> {
            threadFailures.add(thread.getName() + ": " + e);
            log.error("JeroMQ thread {} of socket context {} died: {}", thread.getName(), name, e.toString());
        });
        c.setNotificationExceptionHandler((thread, e) -> {
            // the I/O thread caught it and goes on
            if (isCommandToAnObjectGone(e)) {
                gone.incrementAndGet();
                log.debug("socket context {}: a command for an object already closed was dropped on {}: {}", name,
                        thread.getName(), e.toString());
            } else {
                notifications.add(thread.getName() + ": " + e);
                log.warn("JeroMQ I/O thread {} of socket context {}: {}", thread.getName(), name, e.toString());
            }
        });
    }

    /**
     * JeroMQ 0.6.0 can still send a command (a termination's acknowledgement) to an object that a context
     * shutting down or a socket torn down has just closed. Its I/O thread catches what the send fails with
     * and, by default, prints it as a stack trace (what a {@code jsalt} user saw after a normal answer):
     * a ClosedChannelException when the addressee's mailbox is closed, or, once the reaper has destroyed the
     * socket and emptied its slot, a NullPointerException in {@code Ctx.sendCommand} ({@code slots[tid]} null;
     * about once in 500 transports closed under load). Either way the addressee no longer exists and there
     * is no one left to tell: it is worth a DEBUG line, not a warning.
     */
    static boolean isCommandToAnObjectGone(Throwable e) {
        if (e instanceof ZError.IOException && e.getCause() instanceof ClosedChannelException) {
            return true;
        }
        StackTraceElement[] trace = e.getStackTrace();
        return e instanceof NullPointerException && trace.length > 0
                && "zmq.Ctx".equals(trace[0].getClassName()) && "sendCommand".equals(trace[0].getMethodName());
    }

    @Override
    public ZMQ.Socket createSocket(SocketType type) {
        if (closing.get()) {
            throw new TransportException("the transport is closed");
        }
        ZMQ.Socket socket;
        try {
            socket = super.createSocket(type);
        } catch (RuntimeException e) {
            // a terminated JeroMQ context makes no socket and fails with an NPE of its own
            throw closing.get() ? new TransportException("the transport is closed") : e;
        }
        open.put(socket, type + " opened by " + Thread.currentThread().getName());
        return socket;
    }

    /** Closes {@code socket}; only its owner thread may call this (or a thread holding the owner's lock). */
    @Override
    @SuppressWarnings("deprecation")
    public void destroySocket(ZMQ.Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            super.destroySocket(socket);
        } finally {
            open.remove(socket);
        }
    }

    /** Terminates the context, waiting at most {@link #CLOSE_WAIT}; never closes a socket itself. */
    @Override
    public void close() {
        terminate();
    }

    /**
     * Terminates the context: every socket still open gets ETERM on its next call, and its owner closes it.
     * Returns once all are closed and the context's threads are gone, or after the close wait with one WARN
     * line; true when the context terminated.
     */
    boolean terminate() {
        if (!closing.compareAndSet(false, true)) {
            return leftOpen.isEmpty();
        }
        Thread terminator = new Thread(this::term, "jsalt-zmq-term-" + name);
        terminator.setDaemon(true); // a context left behind must not keep the JVM alive
        this.terminator = terminator;
        terminator.start();
        try {
            terminator.join(closeWait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (terminator.isAlive()) {
            leftOpen = new ArrayList<>(open.values());
            log.warn("socket context {} did not close within {} ms, left behind; sockets still open: {}", name,
                    closeWait.toMillis(), leftOpen.isEmpty() ? "none (JeroMQ's own threads are stuck)" : leftOpen);
            if (leftOpen.isEmpty()) {
                leftOpen = List.of("(none: the context's threads)");
            }
            return false;
        }
        return true;
    }

    private void term() {
        try {
            getContext().term(); // ZMQ.Context's: unlike ZContext.close, it closes no socket itself
        } catch (RuntimeException e) {
            log.debug("terminating socket context {}: {}", name, e.toString());
        }
    }

    /** The sockets a close left open (empty when the context terminated in time); for tests and the log. */
    List<String> leftOpen() {
        return leftOpen;
    }

    /** Exceptions that ended one of JeroMQ's own threads (the reaper, an I/O thread); for tests. */
    List<String> threadFailures() {
        return List.copyOf(threadFailures);
    }

    /** How many commands for objects already closed JeroMQ dropped ({@link #isCommandToAnObjectGone}); for tests. */
    int commandsToObjectsGone() {
        return gone.get();
    }

    /** Other exceptions JeroMQ's I/O threads caught and went on from; for tests. */
    List<String> notifications() {
        return List.copyOf(notifications);
    }

    /** True once the context has terminated, in time or later (a context left behind ends when its owners let go). */
    boolean isTerminated() {
        Thread t = terminator;
        return t != null && !t.isAlive();
    }

    boolean isClosing() {
        return closing.get();
    }

    String name() {
        return name;
    }
}
