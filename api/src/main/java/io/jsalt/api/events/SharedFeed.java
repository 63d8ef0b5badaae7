package io.jsalt.api.events;

import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription to the master's event bus, shared by every stream of one token: its own thread (named in
 * {@link #start}) owns the master's event socket, keeps the events the master lets the token read
 * ({@link EventGrant}, the master's filter, the only one) and hands each to every {@link StreamOutlet} of the
 * token, in order. The token and its rights are asked again every {@link #KEEP_ALIVE}; when the token dies, all
 * its streams end. A stream sent nothing for that long gets a keep-alive. The {@link EventHub} closes the
 * feed when its last stream leaves.
 */
final class SharedFeed {
    static final Duration KEEP_ALIVE = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(SharedFeed.class);

    private final MasterClient master;
    private final EventGrant grant;
    private final EventHub hub;
    private final List<StreamOutlet> outlets = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private volatile LocalEventClient events;
    private volatile boolean closed;

    SharedFeed(MasterClient master, EventGrant grant, EventHub hub) {
        this.master = master;
        this.grant = grant;
        this.hub = hub;
    }

    /** The token whose streams share this feed. */
    String key() {
        return grant.token();
    }

    void start() {
        Thread reader = new Thread(this::run, "jsalt-api-event-feed");
        reader.setDaemon(true);
        reader.start();
    }

    /** Done once the master has registered this reader: no event fired after it can be missed. */
    CompletableFuture<Void> connected() {
        return connected;
    }

    void add(StreamOutlet outlet) {
        outlets.add(outlet);
    }

    /** Takes the outlet out; true when it was the last one. */
    boolean remove(StreamOutlet outlet) {
        outlets.remove(outlet);
        return outlets.isEmpty();
    }

    int streams() {
        return outlets.size();
    }

    /** Stops reading: the reader's thread finds its socket closed and ends. The outlets are the hub's to end. */
    void close() {
        closed = true;
        LocalEventClient e = events;
        if (e != null) {
            e.close();
        }
    }

    /** Ends every stream (the API is stopping); the last one leaving closes the feed. */
    void stop() {
        endAll(StreamOutlet.End.STOPPING);
        close();
    }

    private void run() {
        try {
            events = master.events();
        } catch (RuntimeException e) {
            log.warn("no event subscription: {}", e.getMessage());
            connected.completeExceptionally(e);
            endAll(StreamOutlet.End.MASTER_GONE);
            return;
        }
        connected.complete(null);
        try {
            if (!closed) {
                read();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                log.debug("event subscription ends: {}", e.getMessage());
                endAll(StreamOutlet.End.MASTER_GONE);
            }
        } finally {
            events.close();
        }
    }

    /**
     * Every {@link #KEEP_ALIVE}: the token asked about again, and a keep-alive for each stream that was sent nothing
     * since the last round (also on a busy bus the user may read none of, so a client that left is found).
     */
    private void read() throws IOException {
        long checkedAt = System.nanoTime();
        while (!closed) {
            Optional<EventFrame> next = events.next(KEEP_ALIVE);
            if (System.nanoTime() - checkedAt > KEEP_ALIVE.toNanos()) {
                if (!grant.refresh()) {
                    endAll(StreamOutlet.End.TOKEN_DEAD);
                    return;
                }
                checkedAt = System.nanoTime();
                outlets.forEach(StreamOutlet::quiet);
            }
            if (closed) {
                return;
            }
            if (next.isPresent() && grant.mayRead(next.get().tag())) {
                FeedEvent event = new FeedEvent(next.get());
                for (StreamOutlet outlet : outlets) {
                    outlet.offer(event);
                }
            }
        }
    }

    /** Takes the feed out of the hub (no stream joins it any more), then ends every stream it had. */
    private void endAll(StreamOutlet.End why) {
        hub.retire(this);
        for (StreamOutlet outlet : outlets) {
            outlet.end(why);
        }
    }
}
