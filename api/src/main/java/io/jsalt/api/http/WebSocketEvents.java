package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.server.WebSocketCreator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * salt-api's {@code GET /ws}: the master's event bus over a websocket. The token is the path's last segment
 * ({@code /ws/<token>}, for browsers that cannot send a header), else the {@code X-Auth-Token} header or the
 * {@code session_id} cookie (as {@code GET /events} takes them); a missing or dead token is 401 before the
 * upgrade. As salt-api's, the server answers every text message with {@code server received message} and starts
 * streaming once the client says {@code websocket client ready}; each event is then one text frame
 * {@code data: {"tag", "data"}\n\n}, or with {@code ?format_events} salt-api's formatted view
 * ({@link FormattedEvents}). What a user sees is what {@code GET /events} shows them ({@link EventFeed},
 * {@link EventGrant}), and the streams of both endpoints share one bound ({@link StreamSlots}).
 */
public final class WebSocketEvents implements WebSocketCreator {
    static final String READY = "websocket client ready";
    private static final Logger log = LoggerFactory.getLogger(WebSocketEvents.class);
    private static final long SEND_TIMEOUT_SECONDS = 30;
    /** A socket must ask for its stream this soon after opening, or give its stream slot back. */
    static final long READY_WITHIN_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    private final MasterClient master;
    private final StreamSlots slots;
    private final Executor workers;
    private final Cors cors;
    private final OpenFeeds feeds;

    /**
     * @param workers the HTTP server's worker pool: a stream holds one of its threads, as a {@code GET /events} does
     * @param cors    the origins whose pages may use the session cookie ({@code cors_origin})
     */
    WebSocketEvents(MasterClient master, StreamSlots slots, Executor workers, Cors cors, OpenFeeds feeds) {
        this.feeds = feeds;
        this.cors = cors;
        this.master = master;
        this.slots = slots;
        this.workers = workers;
    }

    /** A socket for a client with a live token; otherwise salt-api's error page and no upgrade. */
    @Override
    public Object createWebSocket(ServerUpgradeRequest request, ServerUpgradeResponse response, Callback callback) {
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
    private static Object refuse(ServerUpgradeResponse response, Callback callback, ApiException e) {
        response.setStatus(e.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
        Content.Sink.write(response, true, ErrorPage.html(e.status(), e.getMessage()), callback);
        return null;
    }

    /**
     * One websocket: waits for the client's ready message, then feeds it on a worker thread until either side ends.
     * Public, as Jetty binds a listener's methods through a public lookup.
     */
    public final class Stream implements Session.Listener.AutoDemanding {
        private final EventGrant grant;
        private final FormattedEvents formatter;
        private final AtomicBoolean started = new AtomicBoolean();
        private final AtomicBoolean released = new AtomicBoolean();
        private volatile Session session;
        private volatile long openedAtNanos;

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
            openedAtNanos = System.nanoTime();
            if (!slots.tryAcquire()) {
                released.set(true); // nothing to give back
                opened.close(StatusCode.TRY_AGAIN_LATER, "Too many event streams are open: try again later",
                        org.eclipse.jetty.websocket.api.Callback.NOOP);
            }
        }

        @Override
        public void onWebSocketText(String message) {
            if (released.get()) {
                return; // refused at open, or already ended
            }
            if (!started.get() && !message.equals(READY) && System.nanoTime() - openedAtNanos > READY_WITHIN_NANOS) {
                // a socket that holds a stream slot without ever asking for the stream (its token is checked again
                // only once it streams): it would keep the slot after its token died
                release();
                session.close(StatusCode.POLICY_VIOLATION, "send '" + READY + "' within "
                        + READY_WITHIN_NANOS / 1_000_000_000L + " s of opening", org.eclipse.jetty.websocket.api.Callback.NOOP);
                return;
            }
            if (message.equals(READY) && started.compareAndSet(false, true)) {
                try {
                    workers.execute(this::feed);
                } catch (RuntimeException e) {
                    log.warn("no worker for a websocket stream: {}", e.getMessage());
                    release();
                    session.close(StatusCode.TRY_AGAIN_LATER, "no worker free", org.eclipse.jetty.websocket.api.Callback.NOOP);
                    return;
                }
            }
            session.sendText("server received message", org.eclipse.jetty.websocket.api.Callback.NOOP);
        }

        @Override
        public void onWebSocketClose(int status, String reason) {
            if (!started.get()) {
                release(); // never fed: the feed's own finally will not run
            }
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            log.debug("websocket error: {}", cause.getMessage());
            if (!started.get()) {
                release();
            }
        }

        private void feed() {
            try (OpenFeeds.Feed feed = feeds.open(master::events)) {
                EventFeed.run(feed.events(), grant, new EventFeed.Sink() {
                    @Override
                    public void event(EventFrame event) throws IOException {
                        if (formatter == null) {
                            send("data: " + JsonBodies.write(EventFeed.full(event)) + "\n\n");
                        } else {
                            for (String text : formatter.process(event)) {
                                send(text);
                            }
                        }
                    }

                    @Override
                    public void quiet() throws IOException {
                        block(c -> session.sendPing(ByteBuffer.allocate(0), c));
                    }

                    @Override
                    public boolean open() {
                        return session.isOpen();
                    }
                });
                session.close(StatusCode.POLICY_VIOLATION, "token no longer valid", org.eclipse.jetty.websocket.api.Callback.NOOP);
            } catch (IOException | RuntimeException e) {
                log.debug("websocket stream ends: {}", e.getMessage()); // the client went away, or the master did
                session.close(StatusCode.NORMAL, null, org.eclipse.jetty.websocket.api.Callback.NOOP);
            } finally {
                release();
            }
        }

        private void send(String text) throws IOException {
            block(c -> session.sendText(text, c));
        }

        /** One send, waited for: the feed never runs ahead of a slow client (its memory stays bounded). */
        private void block(java.util.function.Consumer<org.eclipse.jetty.websocket.api.Callback> send) throws IOException {
            org.eclipse.jetty.websocket.api.Callback.Completable done = new org.eclipse.jetty.websocket.api.Callback.Completable();
            send.accept(done);
            try {
                done.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("websocket send failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }

        private void release() {
            if (released.compareAndSet(false, true)) {
                slots.release();
            }
        }
    }
}
