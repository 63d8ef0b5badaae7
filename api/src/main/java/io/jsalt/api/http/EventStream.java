package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
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
 * Each stream holds one HTTP worker and one reader of the master's event socket while it lasts, and one of the
 * {@link StreamSlots} it shares with {@code GET /ws}.
 */
final class EventStream {
    private static final Logger log = LoggerFactory.getLogger(EventStream.class);
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    private final MasterClient master;
    private final StreamSlots slots;
    private final OpenFeeds feeds;

    EventStream(MasterClient master, StreamSlots slots, OpenFeeds feeds) {
        this.master = master;
        this.slots = slots;
        this.feeds = feeds;
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
     * Checks the token (401 before anything is written) and takes a stream slot (503 when every one is taken),
     * then streams until the client leaves or the token dies.
     */
    void serve(Request request, Response response) throws IOException {
        EventGrant grant = grantFor(master, offeredToken(request));
        if (!slots.tryAcquire()) {
            throw new ApiException(503, "Too many event streams are open: try again later");
        }
        try (OpenFeeds.Feed feed = feeds.open(master::events)) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream;charset=utf-8");
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
            write(response, "retry: 400\n\n");
            EventFeed.run(feed.events(), grant, new EventFeed.Sink() {
                @Override
                public void event(EventFrame event) throws IOException {
                    write(response, "tag: " + oneLine(event.tag()) + "\ndata: " + JsonBodies.write(EventFeed.full(event)) + "\n\n");
                }

                @Override
                public void quiet() throws IOException {
                    write(response, ":\n\n");
                }
            });
            log.debug("event stream ends: its token is no longer valid");
        } finally {
            slots.release();
        }
    }

    /** The master's grant for a token offered by a client; a missing, malformed or dead token is salt-api's 401. */
    static EventGrant grantFor(MasterClient master, String token) {
        EventGrant grant = token != null && HEX.matcher(token).matches() ? new EventGrant(master, token) : null;
        if (grant == null || !grant.refresh()) {
            throw ApiException.unauthorized("No permission -- see authorization schemes");
        }
        return grant;
    }

    /** A tag is one SSE field: a line break in it would start a field of its own. */
    private static String oneLine(String s) {
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }

    private static void write(Response response, String text) throws IOException {
        try (Blocker.Callback done = Blocker.callback()) {
            Content.Sink.write(response, false, text, done);
            done.block();
        }
    }
}
