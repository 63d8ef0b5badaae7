package io.jsalt.e2e;

import static org.awaitility.Awaitility.await;

import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Records every event of a master's local event bus, each with the time it arrived. Connecting retries
 * until a master listens, so a tap opened while the master restarts catches it as soon as its bus is up
 * (the bus starts before the master binds its ports, so no minion can sign in unseen).
 */
public final class EventTap implements AutoCloseable {
    public record Seen(EventFrame event, Instant at) {}

    private final LocalEventClient client;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    private EventTap(LocalEventClient client) {
        this.client = client;
        Thread reader = new Thread(this::read, "e2e-event-tap");
        reader.setDaemon(true);
        reader.start();
    }

    public static EventTap connect(Path sockDir, Duration within) {
        AtomicReference<LocalEventClient> client = new AtomicReference<>();
        await().atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(() -> {
            try {
                client.set(LocalEventClient.connect(sockDir, Duration.ofSeconds(2)));
                return true;
            } catch (IOException e) {
                return false; // no master listening yet (or a stale socket file a killed master left)
            }
        });
        return new EventTap(client.get());
    }

    private void read() {
        try {
            while (open) {
                client.next(Duration.ofMillis(200)).ifPresent(e -> seen.add(new Seen(e, Instant.now())));
            }
        } catch (IOException e) {
            open = false; // the master went away
        }
    }

    public List<Seen> matching(Predicate<EventFrame> predicate) {
        return seen.stream().filter(s -> predicate.test(s.event())).toList();
    }

    /** Returns of minion {@code id}: {@code salt/job/<jid>/ret/<id>}. */
    public static Predicate<EventFrame> returnOf(String id) {
        return e -> e.tag().matches("salt/job/[0-9]{20}/ret/" + java.util.regex.Pattern.quote(id));
    }

    @Override
    public void close() {
        open = false;
        client.close();
    }
}
