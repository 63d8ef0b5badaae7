package io.jsalt.api.events;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The API's event subscriptions, one per token that streams ({@link SharedFeed}): every {@code GET /events} and
 * {@code GET /ws} stream of a token joins its token's feed, so a console open in many tabs costs the master one
 * event reader and the API one thread. The key is the token because the master's filter ({@code event_access})
 * answers per token, and the token is what logout, expiry and removal kill: two logins of one user are two
 * subscriptions, never one stream living on another's token. At most {@link #MAX_SUBSCRIPTIONS} tokens stream at
 * once (each holds a thread here and a reader socket and thread on the master); the streams themselves are bounded
 * by {@link EventLimits#maxStreams()}.
 */
public final class EventHub implements AutoCloseable {
    public static final int MAX_SUBSCRIPTIONS = 56;
    private static final long CONNECT_WITHIN_SECONDS = 10;

    private final MasterClient master;
    private final Map<String, SharedFeed> feeds = new HashMap<>(); // guarded by this
    private boolean closed; // guarded by this

    public EventHub(MasterClient master) {
        this.master = master;
    }

    /**
     * Adds {@code outlet} to the feed of {@code grant}'s token (opening one if the token has none) and returns once
     * that feed reads the bus, so the stream misses no event fired after this returns. The outlet writes nothing
     * before its owner {@link StreamOutlet#start starts} it.
     *
     * @param grant the master's grant for the stream's token, just checked live (it becomes the feed's when new)
     * @throws ApiException 503 when {@link #MAX_SUBSCRIPTIONS} other tokens stream already, or the master's event
     *                      socket cannot be read; the outlet is then out of every feed
     */
    public void join(EventGrant grant, StreamOutlet outlet) {
        SharedFeed feed;
        synchronized (this) {
            if (closed) {
                throw new ApiException(503, StreamOutlet.End.STOPPING.words());
            }
            feed = feeds.get(grant.token());
            if (feed == null) {
                if (feeds.size() >= MAX_SUBSCRIPTIONS) {
                    throw new ApiException(503, "Too many event subscriptions are open (" + MAX_SUBSCRIPTIONS
                            + " logins stream events now): try again later");
                }
                feed = new SharedFeed(master, grant, this);
                feeds.put(grant.token(), feed);
                feed.start();
            }
            SharedFeed joined = feed;
            // told how to leave before the reader can reach it: a cut-off in between would otherwise leave nothing
            outlet.joined(() -> leave(joined, outlet));
            feed.add(outlet);
        }
        try {
            feed.connected().get(CONNECT_WITHIN_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            outlet.end(StreamOutlet.End.MASTER_GONE);
            throw new ApiException(503, "Salt Master is not available: its event socket");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outlet.end(StreamOutlet.End.STOPPING);
            throw new ApiException(503, StreamOutlet.End.STOPPING.words());
        }
    }

    /** Subscriptions to the master's bus open now (tokens streaming). */
    public synchronized int subscriptions() {
        return feeds.size();
    }

    /** The outlet is done: out of its feed, and the feed closed when it was the last. */
    private synchronized void leave(SharedFeed feed, StreamOutlet outlet) {
        if (feed.remove(outlet)) {
            feeds.remove(feed.key(), feed);
            feed.close();
        }
    }

    /** The feed's token died or its bus went away: no stream joins it any more. */
    synchronized void retire(SharedFeed feed) {
        feeds.remove(feed.key(), feed);
    }

    /** Ends every stream ({@link StreamOutlet.End#STOPPING}) and closes every subscription. */
    @Override
    public void close() {
        List<SharedFeed> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(feeds.values());
        }
        open.forEach(SharedFeed::stop);
    }
}
