package io.jsalt.api.events;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * One client's end of a {@link SharedFeed}: a bounded buffer of the events the client has yet to receive, written
 * out with non-blocking writes, one at a time (the next once the previous is done). The feed's reader only ever
 * adds to the buffer: a client that cannot keep up is cut off ({@link End#TOO_SLOW}) once {@code capacity} events
 * wait for it, so it never holds back the reader or the other streams. Subclasses say how an event, a keep-alive
 * and the end look on their wire (server-sent events, websocket frames); their writes run on whichever thread
 * calls in (the reader's, or the one completing the previous write), never two at once.
 */
public abstract class StreamOutlet {
    /** Why a stream ends: its words go to the client in the stream's last message. */
    public enum End {
        TOKEN_DEAD("the token is no longer valid"),
        TOO_SLOW("the client fell too far behind the event bus"),
        MASTER_GONE("the master's event bus is not available"),
        CLIENT_GONE("the client went away"),
        STOPPING("the API is stopping");

        private final String words;

        End(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    private final int capacity;
    private final ArrayDeque<FeedEvent> waiting = new ArrayDeque<>(); // guarded by this
    private final Pump pump = new Pump();
    private final AtomicBoolean left = new AtomicBoolean();
    private boolean started; // guarded by this
    private boolean openingSent; // guarded by this
    private boolean keepAliveDue; // guarded by this
    private boolean offeredSinceQuiet; // guarded by this
    private End end; // guarded by this
    private boolean endSent; // guarded by this
    private volatile Runnable leave = () -> {};

    protected StreamOutlet(int capacity) {
        this.capacity = capacity;
    }

    /** What the stream sends first, before any event (SSE's {@code retry:}); {@code done} when written. */
    protected abstract void writeOpening(Callback done);

    protected abstract void writeEvent(FeedEvent event, Callback done);

    /** Nothing happened on the bus for a while: a keep-alive, which also finds clients that left. */
    protected abstract void writeKeepAlive(Callback done);

    /** The stream's last message, saying why it ends (nothing for {@link End#CLIENT_GONE}). */
    protected abstract void writeEnd(End why, Callback done);

    /** The stream is over ({@code failure} null after its end was written): give back what it holds. Called once. */
    protected abstract void finished(Throwable failure);

    /** The client fell {@code capacity} events behind and is cut off (its end still goes out after the write under way). */
    protected void cutOff() {
        // nothing by default
    }

    /** Called by the feed when it takes this outlet in: how to leave it. */
    final void joined(Runnable leaveFeed) {
        this.leave = leaveFeed;
    }

    /** The stream's opening may go out, then the events waiting for it. */
    public final void start() {
        synchronized (this) {
            started = true;
        }
        pump.iterate();
    }

    /** From the feed's reader: never blocks; a full buffer ends the stream instead of waiting. */
    final void offer(FeedEvent event) {
        boolean cutOff = false;
        synchronized (this) {
            if (end != null) {
                return;
            }
            if (waiting.size() >= capacity) {
                waiting.clear();
                end = End.TOO_SLOW;
                cutOff = true;
            } else {
                waiting.add(event);
                offeredSinceQuiet = true;
            }
        }
        if (cutOff) {
            cutOff();
            leaveFeed();
        }
        pump.iterate();
    }

    /**
     * From the feed's reader once per keep-alive period: a keep-alive, unless the client was handed an event since the
     * last call (or has one waiting).
     */
    final void quiet() {
        synchronized (this) {
            boolean busy = offeredSinceQuiet;
            offeredSinceQuiet = false;
            if (end != null || busy || !waiting.isEmpty()) {
                return;
            }
            keepAliveDue = true;
        }
        pump.iterate();
    }

    /** Ends the stream: what waits for the client is dropped and the end goes out after the write under way. */
    public final void end(End why) {
        synchronized (this) {
            if (end != null) {
                return;
            }
            end = why;
            waiting.clear();
        }
        leaveFeed();
        pump.iterate();
    }

    /** Events waiting for this client now. */
    public final synchronized int waiting() {
        return waiting.size();
    }

    private void leaveFeed() {
        if (left.compareAndSet(false, true)) {
            leave.run();
        }
    }

    /** Writes one thing at a time: the opening, then events in order, keep-alives when idle, the end last. */
    private final class Pump extends IteratingCallback {
        private enum Next { OPENING, EVENT, KEEP_ALIVE, END }

        @Override
        protected Action process() {
            Next next;
            FeedEvent event = null;
            End why = null;
            synchronized (StreamOutlet.this) {
                if (!started) {
                    return Action.IDLE; // its owner has not answered the request yet (and may still refuse it)
                }
                if (endSent) {
                    return Action.SUCCEEDED;
                }
                if (!openingSent && end == null) {
                    openingSent = true;
                    next = Next.OPENING;
                } else if (!waiting.isEmpty()) {
                    event = waiting.poll();
                    next = Next.EVENT;
                } else if (end != null) {
                    endSent = true;
                    why = end;
                    next = Next.END;
                } else if (keepAliveDue) {
                    keepAliveDue = false;
                    next = Next.KEEP_ALIVE;
                } else {
                    return Action.IDLE;
                }
            }
            switch (next) {
                case OPENING -> writeOpening(this);
                case EVENT -> writeEvent(event, this);
                case KEEP_ALIVE -> writeKeepAlive(this);
                case END -> writeEnd(why, this);
            }
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteSuccess() {
            finished(null);
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            synchronized (StreamOutlet.this) {
                if (end == null) {
                    end = End.CLIENT_GONE;
                }
                waiting.clear();
            }
            leaveFeed();
            finished(cause);
        }
    }
}
