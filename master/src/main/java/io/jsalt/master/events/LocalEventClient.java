package io.jsalt.master.events;

import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads the master's local event bus (see {@link LocalEventServer}). {@link #connect} returns once the
 * master has registered this reader, so no event fired after it returns can be missed. At most
 * {@link #CAPACITY} events wait here for the caller: beyond that the socket is no longer read, and the master
 * disconnects a reader that falls that far behind, so a slow caller learns it missed events instead of this
 * process holding the whole bus in memory.
 */
public final class LocalEventClient implements AutoCloseable {
    private static final int MAX_FRAME = 64 * 1024 * 1024;
    private static final EventFrame CLOSED = new EventFrame("", java.util.Map.of());

    private final SocketChannel channel;
    static final int CAPACITY = 10_000;

    private final LinkedBlockingQueue<EventFrame> events = new LinkedBlockingQueue<>(CAPACITY);
    private volatile boolean disconnected;

    private LocalEventClient(SocketChannel channel) {
        this.channel = channel;
    }

    public static LocalEventClient connect(Path sockDir, Duration timeout) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(LocalEventServer.socketPath(sockDir)));
        LocalEventClient client = new LocalEventClient(ch);
        Thread t = new Thread(client::readLoop, "jsalt-event-client");
        t.setDaemon(true);
        java.util.concurrent.CountDownLatch registered = new java.util.concurrent.CountDownLatch(1);
        client.onRegistered = registered::countDown;
        t.start();
        try {
            if (!registered.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IOException("the master did not register this event reader in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new IOException("interrupted", e);
        }
        return client;
    }

    private Runnable onRegistered = () -> {};

    private void readLoop() {
        try {
            ByteBuffer len = ByteBuffer.allocate(4);
            while (true) {
                len.clear();
                readFully(len);
                int n = len.flip().getInt();
                if (n < 0 || n > MAX_FRAME) {
                    throw new IOException("bad event frame length " + n);
                }
                ByteBuffer body = ByteBuffer.allocate(n);
                readFully(body);
                if (n == 0) {
                    onRegistered.run();
                    continue;
                }
                EventFrame frame;
                try {
                    frame = EventFrame.decode(body.array());
                } catch (WireException e) {
                    continue; // a frame we cannot read is skipped, the stream goes on
                }
                deliver(frame);
            }
        } catch (IOException e) {
            disconnected = true;
            events.offer(CLOSED); // when the queue is full, next() finds the flag once it is drained
        }
    }

    /** Waits while {@link #CAPACITY} events are queued: the socket fills and the master deals with the slow reader. */
    private void deliver(EventFrame frame) throws IOException {
        try {
            while (!events.offer(frame, 200, TimeUnit.MILLISECONDS)) {
                if (!channel.isOpen()) {
                    throw new IOException("closed by its owner");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Events waiting for the caller. */
    int queued() {
        return events.size();
    }

    private void readFully(ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            if (channel.read(buf) < 0) {
                throw new IOException("event socket closed");
            }
        }
    }

    /** The next event, or empty on timeout; throws when the master closed the connection. */
    public Optional<EventFrame> next(Duration timeout) throws IOException {
        try {
            EventFrame e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (e == CLOSED || e == null && disconnected && events.isEmpty()) {
                throw new IOException("the master closed the event connection");
            }
            return Optional.ofNullable(e);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    public boolean isDisconnected() {
        return disconnected;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
