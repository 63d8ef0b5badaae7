package io.jsalt.client;

import io.jsalt.master.events.LocalEventClient;
import io.jsalt.master.events.LocalEventServer;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A live subscription to a master's event bus. {@link #subscribe} returns once the master has registered
 * the reader, so every event fired after that reaches the listener. Events are delivered on one thread of
 * this subscription, in order. It ends when {@link #close()} is called (then {@link #done()} completes
 * normally), or when the master goes away or the listener throws (then {@link #done()} completes
 * exceptionally with the reason): errors are never swallowed.
 */
public final class EventSubscription implements AutoCloseable {
    private static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(5);

    private final LocalEventClient client;
    private final TagPattern pattern;
    private final EventListener listener;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean closing;

    private EventSubscription(LocalEventClient client, TagPattern pattern, EventListener listener) {
        this.client = client;
        this.pattern = pattern;
        this.listener = listener;
        this.thread = new Thread(this::deliver, "jsalt-client-events");
        thread.setDaemon(true);
    }

    /**
     * Subscribes to the bus of the master whose {@code sock_dir} is given (e.g. {@code /var/run/jsalt/master}).
     *
     * @throws IOException when the master is not running there, or this process may not read its bus (only
     *     the master's user may)
     */
    public static EventSubscription subscribe(Path sockDir, TagPattern pattern, EventListener listener) throws IOException {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(listener, "listener");
        LocalEventClient client;
        try {
            client = LocalEventClient.connect(sockDir, REGISTER_TIMEOUT);
        } catch (IOException e) {
            throw new IOException("cannot read the master's event bus " + LocalEventServer.socketPath(sockDir) + ": "
                    + e.getMessage() + " (is the master running, and is this its user?)", e);
        }
        EventSubscription s = new EventSubscription(client, pattern, listener);
        s.thread.start();
        return s;
    }

    private void deliver() {
        try {
            while (!closing) {
                Optional<EventFrame> next = client.next(Duration.ofSeconds(1));
                if (next.isPresent() && !closing && pattern.matches(next.get().tag())) {
                    listener.onEvent(new Event(next.get().tag(), next.get().data()));
                }
            }
            done.complete(null);
        } catch (IOException e) {
            end(closing ? null : e);
        } catch (RuntimeException | Error e) {
            end(e);
        }
    }

    private void end(Throwable cause) {
        client.close();
        if (cause == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(cause);
        }
    }

    /** Completes when the subscription has ended: normally after {@link #close()}, exceptionally otherwise. */
    public CompletableFuture<Void> done() {
        return done;
    }

    /** Whether events are still being delivered. */
    public boolean isOpen() {
        return !done.isDone();
    }

    /**
     * Stops the subscription: no event is delivered after this returns, unless it is called from the listener
     * itself (then the event being handled is the last) or the listener is still busy after 5 s. Idempotent.
     */
    @Override
    public void close() {
        closing = true;
        client.close();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(REGISTER_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        done.complete(null);
    }
}
