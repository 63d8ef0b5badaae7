package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
 * Each stream holds one HTTP worker and one reader of the master's event socket while it lasts.
 */
final class EventStream {
    private static final Logger log = LoggerFactory.getLogger(EventStream.class);
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");
    /** How long a quiet stream waits before a keep-alive comment (which also finds clients that went away). */
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(5);

    private final MasterClient master;

    EventStream(MasterClient master) {
        this.master = master;
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

    /** Checks the token (401 before anything is written), then streams until the client leaves or the token dies. */
    void serve(Request request, Response response) throws IOException {
        String token = offeredToken(request);
        EventGrant grant = token != null && HEX.matcher(token).matches() ? new EventGrant(master, token) : null;
        if (grant == null || !grant.refresh()) {
            throw ApiException.unauthorized("No permission -- see authorization schemes");
        }
        try (LocalEventClient events = master.events()) {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream;charset=utf-8");
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
            write(response, "retry: 400\n\n");
            long checkedAt = System.nanoTime();
            while (true) {
                Optional<EventFrame> next = events.next(KEEP_ALIVE);
                if (System.nanoTime() - checkedAt > KEEP_ALIVE.toNanos()) {
                    if (!grant.refresh()) {
                        log.debug("event stream ends: its token is no longer valid");
                        return;
                    }
                    checkedAt = System.nanoTime();
                }
                if (next.isEmpty()) {
                    write(response, ":\n\n");
                    continue;
                }
                if (!grant.mayRead(next.get().tag())) {
                    continue;
                }
                Map<String, Object> full = new LinkedHashMap<>();
                full.put("tag", next.get().tag());
                full.put("data", next.get().data());
                write(response, "tag: " + oneLine(next.get().tag()) + "\ndata: " + JsonBodies.write(full) + "\n\n");
            }
        }
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
