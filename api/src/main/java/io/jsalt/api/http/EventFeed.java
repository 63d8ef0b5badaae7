package io.jsalt.api.http;

import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The loop behind {@code GET /events} and {@code GET /ws}: reads the master's event bus and hands on the events
 * the user may read, as the master decides it ({@link EventGrant}: the same filter for both endpoints). The
 * token and the rights are asked again every {@link #KEEP_ALIVE}, so the feed ends when the token dies; a quiet
 * feed gets a keep-alive at the same pace (which also finds clients that went away).
 */
final class EventFeed {
    static final Duration KEEP_ALIVE = Duration.ofSeconds(5);

    /** Where the events go: an SSE response or a websocket. An IOException from it means the client left. */
    interface Sink {
        void event(EventFrame event) throws IOException;

        /** Nothing to send for {@link #KEEP_ALIVE}. */
        void quiet() throws IOException;

        /** False once the client is gone (a websocket closed while the bus is busy with events it cannot read). */
        default boolean open() {
            return true;
        }
    }

    private EventFeed() {}

    /** Runs until the token is no longer live (then returns) or the client leaves (IOException). */
    static void run(LocalEventClient events, EventGrant grant, Sink sink) throws IOException {
        long checkedAt = System.nanoTime();
        while (sink.open()) {
            Optional<EventFrame> next = events.next(KEEP_ALIVE);
            if (System.nanoTime() - checkedAt > KEEP_ALIVE.toNanos()) {
                if (!grant.refresh()) {
                    return;
                }
                checkedAt = System.nanoTime();
            }
            if (next.isEmpty()) {
                sink.quiet();
            } else if (grant.mayRead(next.get().tag())) {
                sink.event(next.get());
            }
        }
        throw new IOException("the client went away");
    }

    /** An event as salt-api's streams carry it: {@code {"tag", "data"}} (Salt's {@code iter_events(full=True)}). */
    static Map<String, Object> full(EventFrame event) {
        Map<String, Object> full = new LinkedHashMap<>();
        full.put("tag", event.tag());
        full.put("data", event.data());
        return full;
    }
}
