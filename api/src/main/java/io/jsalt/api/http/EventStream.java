package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.api.events.EventGrant;
import io.jsalt.api.events.EventHub;
import io.jsalt.api.events.FeedEvent;
import io.jsalt.api.events.StreamOutlet;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * salt-api's {@code GET /events}: the master's event bus as server-sent events, {@code retry: 400} then for
 * each event a {@code tag:} line and a {@code data:} line holding {@code {"tag", "data"}} as JSON. The token
 * comes as salt-api takes it: the {@code X-Auth-Token} header, the {@code token} or {@code salt_token} query
 * parameter, or the {@code session_id} cookie; it must be hex and live. Unlike salt-api, which streams the
 * whole bus to any token, a user sees what the master lets them ({@link EventGrant}): their own jobs' events,
 * everything only with the {@code @events} right or {@code eauth_events: all}. The token and the rights are
 * checked again every few seconds and the stream ends when the token dies (logout, expiry, user removed).
 * A stream holds no thread: it is one outlet of its token's shared subscription ({@link EventHub}), written with
 * non-blocking writes, and one of the {@link StreamSlots} it shares with {@code GET /ws}. Its end is a comment line
 * saying why ({@code : the token is no longer valid}, {@code : the client fell too far behind ...}), then the
 * end of the response.
 */
final class EventStream {
    private static final Logger log = LoggerFactory.getLogger(EventStream.class);
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    private final MasterClient master;
    private final StreamSlots slots;
    private final EventHub hub;
    private final int buffer;

    /** @param buffer the events one stream may have waiting for its client ({@code event_stream_buffer}) */
    EventStream(MasterClient master, StreamSlots slots, EventHub hub, int buffer) {
        this.master = master;
        this.slots = slots;
        this.hub = hub;
        this.buffer = buffer;
    }

    /** The token a request offers, in salt-api's order: header, ?token=, ?salt_token=, the session_id cookie. */
    static String offeredToken(Request request) {
        String header = request.getHeaders().get("X-Auth-Token");
        if (header != null) {
            return header;
        }
        Fields query = Request.extractQueryParameters(request);
        for (String name : new String[] {"token", "salt_token"}) {
            if (query.getValue(name) != null) {
                return query.getValue(name);
            }
        }
        for (HttpCookie cookie : Request.getCookies(request)) {
            if (cookie.getName().equals("session_id")) {
                return cookie.getValue();
            }
        }
        return null;
    }

    /**
     * Checks the token (401 before anything is written), takes a stream slot (503 when every one is taken) and joins
     * the token's subscription (503 when too many tokens stream); then returns, the stream going on without a
     * thread until the client leaves or the token dies, when {@code callback} completes.
     */
    void serve(Request request, Response response, Callback callback) {
        EventGrant grant = grantFor(master, offeredToken(request));
        if (!slots.tryAcquire()) {
            throw new ApiException(503, "Too many event streams are open: try again later");
        }
        Outlet outlet = new Outlet(response, callback, buffer);
        try {
            hub.join(grant, outlet);
        } catch (ApiException e) {
            slots.release();
            throw e;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream;charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        outlet.start();
    }

    /** The master's grant for a token offered by a client; a missing, malformed or dead token is salt-api's 401. */
    static EventGrant grantFor(MasterClient master, String token) {
        EventGrant grant = token != null && HEX.matcher(token).matches() ? new EventGrant(master, token) : null;
        if (grant == null || !grant.refresh()) {
            throw ApiException.unauthorized("No permission -- see authorization schemes");
        }
        return grant;
    }

    /** An event as one server-sent event: its {@code tag:} line and its {@code data:} line. */
    private static final Function<FeedEvent, byte[]> SSE = event -> ("tag: " + oneLine(event.tag()) + "\ndata: "
            + event.json(JsonBodies::write) + "\n\n").getBytes(StandardCharsets.UTF_8);

    /** A tag is one SSE field: a line break in it would start a field of its own. */
    private static String oneLine(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }

    /** One stream's outlet: server-sent events on the response, which is completed when the stream ends. */
    private final class Outlet extends StreamOutlet {
        private final Response response;
        private final Callback callback;

        Outlet(Response response, Callback callback, int buffer) {
            super(buffer);
            this.response = response;
            this.callback = callback;
        }

        @Override
        protected void writeOpening(Callback done) {
            Content.Sink.write(response, false, "retry: 400\n\n", done);
        }

        @Override
        protected void writeEvent(FeedEvent event, Callback done) {
            response.write(false, event.bytes(SSE), done); // encoded once for every stream of the subscription
        }

        @Override
        protected void writeKeepAlive(Callback done) {
            Content.Sink.write(response, false, ":\n\n", done);
        }

        @Override
        protected void writeEnd(End why, Callback done) {
            if (why == End.CLIENT_GONE) {
                done.succeeded();
            } else {
                log.debug("event stream ends: {}", why.words());
                Content.Sink.write(response, true, ": " + why.words() + "\n\n", done);
            }
        }

        @Override
        protected void cutOff() {
            slots.slowStreamCut();
        }

        @Override
        protected void finished(Throwable failure) {
            slots.release();
            if (failure == null) {
                callback.succeeded();
            } else {
                log.debug("event stream closed: {}", failure.getMessage()); // the client went away
                callback.failed(failure);
            }
        }
    }
}
