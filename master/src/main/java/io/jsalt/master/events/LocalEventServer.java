package io.jsalt.master.events;

import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the master's bus to local readers (the CLI, jsalt-event) on a Unix socket in {@code sock_dir}:
 * only the master's user can open it (folder 0700, socket 0600), and it is never a TCP port. Frames are
 * a 4-byte length and an {@link EventFrame}; an empty frame tells a new reader it is registered. A reader
 * too slow to keep up is disconnected with a warning rather than silently losing events (as Salt does).
 */
public final class LocalEventServer implements EventListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LocalEventServer.class);
    public static final String SOCKET_NAME = "master_event_pub.ipc";
    private static final int QUEUE_PER_READER = 10_000;
    private static final long ACCEPT_RETRY_MS = 200;

    private final ServerSocketChannel server;
    private final Path socketPath;
    private final CopyOnWriteArrayList<Reader> readers = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile boolean running = true;

    public LocalEventServer(Path sockDir) {
        socketPath = sockDir.resolve(SOCKET_NAME);
        try {
            Files.createDirectories(sockDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.deleteIfExists(socketPath);
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socketPath));
            Files.setPosixFilePermissions(socketPath, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the event socket " + socketPath, e);
        }
        acceptor = new Thread(this::acceptLoop, "jsalt-event-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static Path socketPath(Path sockDir) {
        return sockDir.resolve(SOCKET_NAME);
    }

    private void acceptLoop() {
        while (running) {
            try {
                SocketChannel channel = server.accept();
                Reader reader = new Reader(channel);
                readers.add(reader);
                reader.queue.add(new byte[0]); // the "registered" marker: events from now on reach this reader
                reader.start();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (running) {
                    log.warn("event socket accept failed: {}", e.toString());
                    pauseAfterFailedAccept();
                }
            }
        }
    }

    /** A failing accept (no file descriptors left) fails again at once: pause instead of spinning. */
    private static void pauseAfterFailedAccept() {
        try {
            Thread.sleep(ACCEPT_RETRY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void onEvent(EventFrame event) {
        if (readers.isEmpty()) {
            return;
        }
        byte[] bytes = event.encode();
        for (Reader r : readers) {
            if (!r.queue.offer(bytes)) {
                log.warn("event reader too slow ({} events queued): disconnected so it knows it missed events", QUEUE_PER_READER);
                r.close();
            }
        }
    }

    /** The readers connected now (jsalt-api's shared event subscriptions are counted by it in tests and stats). */
    public int readerCount() {
        return readers.size();
    }

    /** False once the thread accepting readers has stopped other than by {@link #close()}. */
    public boolean isAlive() {
        return acceptor.isAlive();
    }

    @Override
    public void close() {
        running = false;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing: nothing to do
        }
        readers.forEach(Reader::close);
        try {
            Files.deleteIfExists(socketPath);
        } catch (IOException ignored) {
            // the folder may already be gone
        }
    }

    /** One connected reader: its own queue and writer thread, so a slow reader never blocks the bus. */
    private final class Reader {
        final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE_PER_READER);
        final SocketChannel channel;
        final Thread writer;
        volatile boolean open = true;

        Reader(SocketChannel channel) {
            this.channel = channel;
            this.writer = new Thread(this::write, "jsalt-event-reader");
            writer.setDaemon(true);
        }

        void start() {
            writer.start();
        }

        private void write() {
            try {
                while (open) {
                    byte[] frame = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (frame == null) {
                        continue;
                    }
                    ByteBuffer buf = ByteBuffer.allocate(4 + frame.length).putInt(frame.length).put(frame).flip();
                    while (buf.hasRemaining()) {
                        channel.write(buf);
                    }
                }
            } catch (IOException | InterruptedException e) {
                log.debug("event reader gone: {}", e.toString());
            } finally {
                close();
            }
        }

        void close() {
            open = false;
            readers.remove(this);
            try {
                channel.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
