package io.jsalt.transport.zmq;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between the request router and its MWorkers: requests wait in one queue that an idle worker takes from, and
 * replies in another that the router empties. The router sleeps in a ZeroMQ poll on its client socket; a worker
 * that leaves a reply while it sleeps wakes it by one byte on a pipe the poll also watches, and only the first
 * reply of a wake does (the rest find the router awake and about to send them). No ZeroMQ socket is shared
 * between threads.
 */
final class WorkerHandOff implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WorkerHandOff.class);

    /** A worker's answer to the client whose ROUTER identity is {@code client}. */
    record Reply(byte[] client, byte[] payload) {}

    private final LinkedBlockingQueue<ClientMessage> requests = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
    private final Pipe pipe;
    private final ByteBuffer drain = ByteBuffer.allocate(64);
    private final AtomicBoolean woken = new AtomicBoolean();
    private volatile boolean routerSleeping;
    private volatile boolean closed;

    private WorkerHandOff(Pipe pipe) {
        this.pipe = pipe;
    }

    static WorkerHandOff open() {
        try {
            Pipe pipe = Pipe.open();
            pipe.source().configureBlocking(false);
            pipe.sink().configureBlocking(false);
            return new WorkerHandOff(pipe);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the request router's wake-up pipe", e);
        }
    }

    /** What the router's poll watches besides its socket: readable when a worker woke it. */
    SelectableChannel wakeUpChannel() {
        return pipe.source();
    }

    /** Router: a request for the next idle worker. */
    void request(ClientMessage message) {
        requests.add(message);
    }

    /** Requests no worker has taken yet. */
    int waiting() {
        return requests.size();
    }

    /** Worker: the next request, or null when none came within {@code timeoutMs}. */
    ClientMessage take(long timeoutMs) throws InterruptedException {
        return requests.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Worker: leaves a reply for the router and wakes it if it sleeps. After {@link #close} the reply is dropped. */
    void reply(byte[] client, byte[] payload) {
        if (closed) {
            return;
        }
        replies.add(new Reply(client, payload));
        // the router marks itself asleep and then looks at the replies once more before it polls, so either it
        // sees this reply or this worker sees it asleep (both flags are volatile)
        if (routerSleeping && woken.compareAndSet(false, true)) {
            wake();
        }
    }

    private void wake() {
        try {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        } catch (IOException e) {
            // the router is closing; it sends nothing more anyway
            log.debug("request router wake-up failed: {}", e.toString());
        }
    }

    /** Router: the next reply to send, or null. */
    Reply nextReply() {
        return replies.poll();
    }

    boolean hasReplies() {
        return !replies.isEmpty();
    }

    /** Router: whether it is about to sleep in its poll (true) or awake (false). */
    void routerSleeping(boolean sleeping) {
        routerSleeping = sleeping;
    }

    /**
     * Router, after each poll: reads the wake-up bytes when the poll found the pipe readable, then lets the next
     * reply wake it again. A byte a worker writes after this (it won the wake-up before the reset) only makes
     * the next poll return at once; a wake-up is never lost, as a worker that won it always writes its byte.
     */
    void afterPoll(boolean pipeReadable) {
        if (pipeReadable) {
            try {
                while (true) {
                    drain.clear();
                    if (pipe.source().read(drain) <= 0) {
                        break;
                    }
                }
            } catch (IOException e) {
                log.debug("request router wake-up pipe: {}", e.toString());
            }
        }
        woken.set(false);
    }

    @Override
    public void close() {
        closed = true;
        ClientMessage left;
        while ((left = requests.poll()) != null) {
            left.release();
        }
        replies.clear();
        closeQuietly(pipe.source());
        closeQuietly(pipe.sink());
    }

    private static void closeQuietly(java.nio.channels.Channel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing to do about it
        }
    }
}
