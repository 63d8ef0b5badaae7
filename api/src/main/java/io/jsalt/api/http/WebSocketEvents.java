package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.api.events.EventGrant;
import io.jsalt.api.events.EventHub;
import io.jsalt.api.events.FeedEvent;
import io.jsalt.api.events.StreamOutlet;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.server.WebSocketCreator;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * salt-api's {@code GET /ws}: the master's event bus over a websocket. The token is the path's last segment
 * ({@code /ws/<token>}, for browsers that cannot send a header), else the {@code X-Auth-Token} header or the
 * {@code session_id} cookie (as {@code GET /events} takes them); a missing or dead token is 401 before the
 * upgrade. As salt-api's, the server answers every text message with {@code server received message} and starts
 * streaming once the client says {@code websocket client ready}; each event is then one text frame
 * {@code data: {"tag", "data"}\n\n}, or with {@code ?format_events} salt-api's formatted view
 * ({@link FormattedEvents}). What a user sees is what {@code GET /events} shows them ({@link EventGrant}), the
 * streams of both endpoints share their token's subscription ({@link EventHub}) and one bound ({@link StreamSlots}).
 * A stream ends with a close frame saying why: 1008 when the token died or the client fell too far behind.
 */
public final class WebSocketEvents implements WebSocketCreator {
    static final String READY = "websocket client ready";
    /** salt-api's answer to each message; to the ready message it comes once the stream is joined. */
    static final String RECEIVED = "server received message";
    private static final Logger log = LoggerFactory.getLogger(WebSocketEvents.class);
    /** A socket must ask for its stream this soon after opening, or give its stream slot back. */
    static final long READY_WITHIN_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    private final MasterClient master;
    private final StreamSlots slots;
    private final Executor workers;
    private final Cors cors;
    private final EventHub hub;
    private final int buffer;
    private final Scheduler scheduler;

    /**
     * @param workers the HTTP server's worker pool, where a stream joins its subscription (it holds no thread after)
     * @param cors    the origins whose pages may use the session cookie ({@code cors_origin})
     * @param hub     the shared subscriptions, one per token streaming
     * @param buffer  the events one stream may have waiting for its client ({@code event_stream_buffer})
     * @param scheduler the HTTP server's timer, for the ready deadline of each socket
     */
    WebSocketEvents(MasterClient master, StreamSlots slots, Executor workers, Cors cors, EventHub hub, int buffer,
            Scheduler scheduler) {
        this.scheduler = scheduler;
        this.hub = hub;
        this.buffer = buffer;
        this.cors = cors;
        this.master = master;
        this.slots = slots;
        this.workers = workers;
    }

    /** A socket for a client with a live token; otherwise salt-api's error page and no upgrade. */
    @Override
    public Object createWebSocket(ServerUpgradeRequest request, ServerUpgradeResponse response, org.eclipse.jetty.util.Callback callback) {
        EventGrant grant;
        try {
            grant = EventStream.grantFor(master, token(request));
        } catch (ApiException e) {
            return refuse(response, callback, e);
        }
        boolean formatted = Request.extractQueryParameters(request).get("format_events") != null;
        return new Stream(grant, formatted);
    }

    /**
     * {@code /ws/<token>} first (salt-api's URL token), then the header, the query or the session cookie. A
     * cookie is sent by the browser to any page's websocket, and websockets know no CORS: a token from the cookie
     * counts only when the request comes from no browser page (no {@code Origin}), from the API's own origin, or
     * from an origin listed in {@code cors_origin} (else another site's page could read the user's events).
     */
    private String token(Request request) {
        String path = Request.getPathInContext(request);
        String last = path.startsWith("/ws/") ? path.substring("/ws/".length()) : "";
        if (!last.isEmpty()) {
            return last;
        }
        String token = EventStream.offeredToken(request);
        boolean fromCookie = token != null && request.getHeaders().get("X-Auth-Token") == null
                && Request.extractQueryParameters(request).getValue("token") == null
                && Request.extractQueryParameters(request).getValue("salt_token") == null;
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (fromCookie && origin != null && !origin.equals(ownOrigin(request)) && !cors.allowsCredentials(origin)) {
            log.warn("websocket refused: a session cookie sent from another origin's page");
            return null;
        }
        return token;
    }

    /** The API's own origin as a browser writes it for a page it served: scheme and the Host it was asked for. */
    private static String ownOrigin(Request request) {
        return (request.isSecure() ? "https://" : "http://") + request.getHeaders().get(HttpHeader.HOST);
    }

    /** The refusal as salt-api's error page, before any upgrade; the creator then returns no socket. */
    private static Object refuse(ServerUpgradeResponse response, org.eclipse.jetty.util.Callback callback, ApiException e) {
        response.setStatus(e.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
        Content.Sink.write(response, true, ErrorPage.html(e.status(), e.getMessage()), callback);
        return null;
    }

    /**
     * One websocket: waits for the client's ready message, then joins its token's shared subscription as one more
     * outlet, until either side ends. Public, as Jetty binds a listener's methods through a public lookup.
     */
    public final class Stream implements Session.Listener.AutoDemanding {
        private final EventGrant grant;
        private final FormattedEvents formatter;
        private final AtomicBoolean started = new AtomicBoolean();
        private final AtomicBoolean released = new AtomicBoolean();
        private volatile Session session;
        private volatile Outlet outlet;

        Stream(EventGrant grant, boolean formatted) {
            this.grant = grant;
            this.formatter = formatted ? new FormattedEvents() : null;
        }

        /**
         * Takes a stream slot once the socket is open (taken in the creator, it would leak when a handshake fails
         * after it); none free: closed at once with 1013 "try again later".
         */
        @Override
        public void onWebSocketOpen(Session opened) {
            session = opened;
            if (!slots.tryAcquire()) {
                released.set(true); // nothing to give back
                opened.close(StatusCode.TRY_AGAIN_LATER, "Too many event streams are open: try again later", Callback.NOOP);
                return;
            }
            scheduler.schedule(this::readyOrClosed, READY_WITHIN_NANOS, java.util.concurrent.TimeUnit.NANOSECONDS);
        }

        /**
         * A socket that holds a stream slot without asking for the stream in time is closed, silent or not: its
         * token is checked only once it streams, so it would keep the slot after its token died.
         */
        private void readyOrClosed() {
            if (!started.get() && !released.get()) {
                release();
                session.close(StatusCode.POLICY_VIOLATION, "send '" + READY + "' within "
                        + READY_WITHIN_NANOS / 1_000_000_000L + " s of opening", Callback.NOOP);
            }
        }

        @Override
        public void onWebSocketText(String message) {
            if (released.get()) {
                return; // refused at open, or already ended
            }
            if (message.equals(READY) && started.compareAndSet(false, true)) {
                try {
                    workers.execute(this::subscribe); // joining may wait for the master to register a new reader
                } catch (RuntimeException e) {
                    log.warn("no worker for a websocket stream: {}", e.getMessage());
                    release();
                    session.close(StatusCode.TRY_AGAIN_LATER, "no worker free", Callback.NOOP);
                }
                return; // answered once the stream is joined: every event after the answer reaches the client
            }
            session.sendText(RECEIVED, Callback.NOOP);
        }

        @Override
        public void onWebSocketClose(int status, String reason) {
            ended();
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            log.debug("websocket error: {}", cause.getMessage());
            ended();
        }

        /** The client closed, or the socket failed: the outlet leaves its feed, or the slot goes back. */
        private void ended() {
            Outlet o = outlet;
            if (o != null) {
                o.end(StreamOutlet.End.CLIENT_GONE);
            } else if (!started.get()) {
                release(); // never fed: no outlet will give the slot back
            }
        }

        private void subscribe() {
            Outlet o = new Outlet(buffer);
            try {
                hub.join(grant, o);
            } catch (ApiException e) {
                log.debug("websocket stream refused: {}", e.getMessage());
                release();
                session.close(StatusCode.TRY_AGAIN_LATER, e.getMessage(), Callback.NOOP);
                return;
            }
            outlet = o;
            session.sendText(RECEIVED, Callback.NOOP);
            o.start();
            if (!session.isOpen()) {
                o.end(StreamOutlet.End.CLIENT_GONE); // closed while joining: its close found no outlet to end
            }
        }

        private void release() {
            if (released.compareAndSet(false, true)) {
                slots.release();
            }
        }

        /** The stream's outlet: text frames ({@code data: ...} or the formatted view), pings, a close saying why. */
        private final class Outlet extends StreamOutlet {
            Outlet(int buffer) {
                super(buffer);
            }

            @Override
            protected void writeOpening(org.eclipse.jetty.util.Callback done) {
                done.succeeded(); // salt-api's websocket has no preamble: its answer to the ready message went out
            }

            @Override
            protected void writeEvent(FeedEvent event, org.eclipse.jetty.util.Callback done) {
                if (formatter == null) {
                    session.sendText("data: " + event.json(JsonBodies::write) + "\n\n", of(done));
                } else {
                    sendAll(formatter.process(event.frame()), 0, done);
                }
            }

            /** The texts one event gives in the formatted view, each sent once the previous one is. */
            private void sendAll(List<String> texts, int from, org.eclipse.jetty.util.Callback done) {
                if (from == texts.size()) {
                    done.succeeded();
                } else {
                    session.sendText(texts.get(from), Callback.from(() -> sendAll(texts, from + 1, done), done::failed));
                }
            }

            @Override
            protected void writeKeepAlive(org.eclipse.jetty.util.Callback done) {
                session.sendPing(ByteBuffer.allocate(0), of(done));
            }

            @Override
            protected void writeEnd(End why, org.eclipse.jetty.util.Callback done) {
                switch (why) {
                    case CLIENT_GONE -> done.succeeded();
                    case TOKEN_DEAD, TOO_SLOW -> session.close(StatusCode.POLICY_VIOLATION, why.words(), of(done));
                    case STOPPING -> session.close(StatusCode.SHUTDOWN, why.words(), of(done));
                    case MASTER_GONE -> session.close(StatusCode.SERVER_ERROR, why.words(), of(done));
                }
            }

            @Override
            protected void cutOff() {
                slots.slowStreamCut();
            }

            @Override
            protected void finished(Throwable failure) {
                if (failure != null) {
                    log.debug("websocket stream ends: {}", failure.getMessage());
                    session.close(StatusCode.NORMAL, null, Callback.NOOP);
                }
                release();
            }

            private static Callback of(org.eclipse.jetty.util.Callback done) {
                return Callback.from(done::succeeded, done::failed);
            }
        }
    }
}
