package io.jsalt.api.http;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Request bodies bounded to {@link #MAX} bytes: a body that declares more is answered salt-api's 413 page at once,
 * and one that turns out longer while it is read (no length given) fails its read, which {@link ApiHandler}
 * answers the same. Over HTTP/1.1 Jetty then closes the connection. Over HTTP/2 the connection stays, and
 * Jetty ends the request's stream with RST_STREAM(CANCEL) after the answer; a client still sending its body
 * may never read that answer (the JDK 17 client waits for flow-control window until its timeout), so the rest
 * of a body declared too long is read and dropped first, if it declares at most {@link #DRAIN} bytes (a longer
 * one gets the reset at once, as Jetty does). A body of no declared length cannot be drained once the size limit has failed it (the
 * failure sticks to the request's content): such a client gets the reset, not the 413.
 */
final class BodyLimit extends Handler.Wrapper {
    static final long MAX = 1_048_576;
    /** How much of an oversized h2 body is read and dropped so its client sees the 413. */
    static final long DRAIN = 8 * 1_048_576L;

    BodyLimit(Handler api) {
        SizeLimitHandler limit = new SizeLimitHandler(MAX, -1);
        limit.setHandler(api);
        setHandler(limit);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.getLength() <= MAX) {
            return super.handle(request, response, callback);
        }
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2 && request.getLength() <= DRAIN) {
            // read and dropped without a worker waiting on it; the answer goes out once it is all in, or the client gave up
            Content.Source.consumeAll(request, Callback.from(() -> tooLarge(response, callback), failure -> tooLarge(response, callback)));
        } else {
            tooLarge(response, callback);
        }
        return true;
    }

    private static void tooLarge(Response response, Callback callback) {
        response.setStatus(413);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "private");
        Content.Sink.write(response, true, ErrorPage.html(413, "The request body is too large"), callback);
    }

    /**
     * True for Jetty's refusal of a body while it was read: the size limit's (an {@code HttpException} 413, maybe
     * wrapped) or a malformed body's ({@code BadMessageException}, also an {@code HttpException}).
     */
    static boolean refusedByJetty(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpException) {
                return true;
            }
        }
        return false;
    }
}
