package io.jsalt.api.http;

import io.jsalt.master.events.LocalEventClient;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The readers of the master's event bus that {@code GET /events} and {@code GET /ws} streams hold open, so that
 * stopping jsalt-api can end them first: closing a reader wakes its stream's worker at once (its next read
 * fails), where Jetty's graceful stop would otherwise wait out its whole timeout for workers that are waiting
 * for events. Once {@link #closeAll} ran, a reader opened later (a stream starting while the server stops) is
 * closed as it is opened.
 */
final class OpenFeeds {
    /** One stream's reader, closed (and forgotten) by the stream when it ends. */
    final class Feed implements AutoCloseable {
        private final LocalEventClient events;

        private Feed(LocalEventClient events) {
            this.events = events;
        }

        LocalEventClient events() {
            return events;
        }

        @Override
        public void close() {
            open.remove(events);
            events.close();
        }
    }

    private final Set<LocalEventClient> open = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    /** Opens a stream's reader ({@code master::events}) and keeps it until the stream closes it. */
    Feed open(Supplier<LocalEventClient> opener) {
        LocalEventClient events = opener.get();
        open.add(events);
        if (stopping) {
            events.close(); // closeAll may have run before the add: this reader must not outlive it
        }
        return new Feed(events);
    }

    /** Closes every reader open now and any opened from now on. */
    void closeAll() {
        stopping = true;
        open.forEach(LocalEventClient::close);
    }
}
