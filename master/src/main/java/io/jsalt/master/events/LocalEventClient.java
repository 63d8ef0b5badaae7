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
 * master has registered this reader, so no event fired after it returns can be missed.
 */
public final class LocalEventClient implements AutoCloseable {
    private static final int MAX_FRAME = 64 * 1024 * 1024;
    private static final EventFrame CLOSED = new EventFrame("", java.util.Map.of());

    private final SocketChannel channel;
    private final LinkedBlockingQueue<EventFrame> events = new LinkedBlockingQueue<>();
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
                try {
                    events.add(EventFrame.decode(body.array()));
                } catch (WireException e) {
                    // a frame we cannot read is skipped, the stream goes on
                }
            }
        } catch (IOException e) {
            disconnected = true;
            events.add(CLOSED);
        }
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
            if (e == CLOSED) {
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
