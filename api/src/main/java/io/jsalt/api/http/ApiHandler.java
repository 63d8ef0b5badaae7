package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty side of the API: reads the body and the {@code X-Auth-Token} header, hands an
 * {@link Routes.Exchange} to {@link Routes}, writes its JSON answer, and turns an {@link ApiException} into
 * salt-api's status and error page. Runs on Jetty's worker threads (blocking: a {@code local} call waits for
 * the minions' returns), but only once a request's body has arrived: a client that never sends the body it
 * announced holds no worker (one HTTP/2 connection carries many such streams). Bodies are bounded by the
 * {@link BodyLimit} around it.
 */
final class ApiHandler extends Handler.Abstract {
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    private final Routes routes;
    private final EventStream events;
    private final Cors cors;
    private final ApiStats stats;
    private final Console console;
    private final StaticFiles staticFiles;
    private final String staticPath;
    private final boolean debug;

    ApiHandler(Routes routes, EventStream events, Cors cors, ApiStats stats, WebFiles web, String rootPrefix, boolean debug) {
        this.console = new Console(web.appPath(), web.app(), rootPrefix);
        this.staticFiles = new StaticFiles(web.staticPath(), web.staticDir());
        this.staticPath = web.staticPath();
        this.routes = routes;
        this.events = events;
        this.cors = cors;
        this.stats = stats;
        this.debug = debug;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        stats.requestStarted();
        if (!request.getMethod().equals("POST")) {
            answer(request, response, callback, null, null);
            return true;
        }
        Executor workers = request.getComponents().getExecutor();
        Content.Source.asStringAsync(request, StandardCharsets.UTF_8).whenComplete((body, failure) ->
                workers.execute(() -> answer(request, response, callback, body, failure)));
        return true;
    }

    private void answer(Request request, Response response, Callback callback, String body, Throwable bodyFailure) {
        try {
            serve(request, response, callback, body, bodyFailure); // synchronous: the status is set when it returns
        } finally {
            stats.requestEnded(response.getStatus());
        }
    }

    /**
     * @param postBody    a POST's body, read before this runs
     * @param bodyFailure why it could not be read (too large, malformed, the client gone), or null
     */
    private boolean serve(Request request, Response response, Callback callback, String postBody, Throwable bodyFailure) {
        int status;
        String body;
        String type = "application/json";
        try {
            String method = request.getMethod();
            Map<String, String> corsHeaders = cors.headers(request.getHeaders().get(HttpHeader.ORIGIN), method,
                    request.getHeaders().get(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD));
            corsHeaders.forEach((k, v) -> response.getHeaders().put(k, v));
            if (method.equals("OPTIONS") && !corsHeaders.isEmpty()) {
                response.setStatus(200); // a preflight: salt-api's cors_tool answers it and nothing else runs
                Content.Sink.write(response, true, "", callback);
                return true;
            }
            // HEAD is GET without the body, as CherryPy answers it for salt-api: same status and headers
            boolean head = method.equals("HEAD");
            if (method.equals("GET") || head) {
                String path = Request.getPathInContext(request);
                Optional<Console.File> file = console.find(path);
                if (file.isPresent()) {
                    sendPage(file.get(), head, response, callback);
                    return true;
                }
                Optional<StaticFiles.Found> found = staticFiles.find(path);
                if (found.isPresent()) {
                    sendFile(found.get(), head, response, callback);
                    return true;
                }
                file = console.pageFor(request.getHeaders().get(HttpHeader.ACCEPT));
                if (file.isPresent() && !WebFiles.within(path, staticPath)) {
                    sendPage(file.get(), head, response, callback);
                    return true;
                }
            }
            boolean eventsPath = Request.getPathInContext(request).replaceAll("/+$", "").equals("/events");
            if (head && eventsPath) {
                throw new ApiException(405, "HEAD is not served for the event stream: GET it");
            }
            if (method.equals("GET") && eventsPath) {
                events.serve(request, response, callback); // the stream completes the callback when it ends
                return true;
            }
            Object parsed = null;
            String text = null;
            if (method.equals("POST")) {
                if (bodyFailure != null) {
                    throw new BodyNotRead(
                            bodyFailure instanceof CompletionException c && c.getCause() != null ? c.getCause() : bodyFailure);
                }
                text = postBody;
                parsed = JsonBodies.parse(request.getHeaders().get(HttpHeader.CONTENT_TYPE), text);
            }
            Map<String, String> headers = new java.util.LinkedHashMap<>();
            request.getHeaders().forEach(f -> headers.merge(titled(f.getName()), f.getValue(), (a, b) -> a + ", " + b));
            String answerType = YamlBodies.negotiate(request.getHeaders().get(HttpHeader.ACCEPT));
            if (answerType == null) {
                throw new ApiException(406, "Your client should accept application/json or application/x-yaml");
            }
            Routes.Reply reply = routes.handle(new Routes.Exchange(head ? "GET" : method, Request.getPathInContext(request),
                    request.getHeaders().get("X-Auth-Token"), parsed, Request.getRemoteAddr(request), text, headers));
            reply.headers().forEach((k, v) -> response.getHeaders().put(k, v));
            if (reply.body() instanceof Routes.Download download) {
                response.setStatus(reply.status());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, download.contentType());
                finish(response, head, download.bytes(), callback);
                return true;
            }
            status = reply.status();
            body = answerType.equals(YamlBodies.TYPE) ? YamlBodies.write(reply.body()) : JsonBodies.write(reply.body());
            type = answerType;
        } catch (ApiException e) {
            status = e.status();
            body = ErrorPage.html(status, e.getMessage());
            type = "text/html;charset=utf-8";
        } catch (Exception e) {
            if (BodyLimit.refusedByJetty(e)) {
                // a body over the size limit, or a malformed request Jetty refused while we read it
                status = 413;
                body = ErrorPage.html(status, "The request body is too large");
            } else if (e instanceof BodyNotRead) {
                // the client went away or stalled while it sent its body: one line, no trace (a hostile client
                // repeats it at will)
                log.debug("{} {}: {}: {}", request.getMethod(), Request.getPathInContext(request), e.getMessage(),
                        e.getCause() == null ? "" : e.getCause().toString());
                callback.failed(e);
                return true;
            } else {
                log.warn("error while serving {} {}", request.getMethod(), Request.getPathInContext(request), e);
                status = 500;
                body = ErrorPage.html(status, debug ? String.valueOf(e) : "An unexpected error occurred");
            }
            type = "text/html;charset=utf-8";
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "private");
        finish(response, request.getMethod().equals("HEAD"), body.getBytes(StandardCharsets.UTF_8), callback);
        return true;
    }

    /** A POST whose body did not arrive whole: the client went away, stalled past the idle timeout, or broke it. */
    private static final class BodyNotRead extends IOException {
        BodyNotRead(Throwable cause) {
            super("the request body could not be read", cause);
        }
    }

    /**
     * A header's name as salt-api hands it on (a webhook's {@code headers}): CherryPy's header map keys are Python's
     * {@code str.title()} of the name, whatever case the client sent; HTTP/2 sends every name in lower case.
     */
    static String titled(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean afterLetter = false;
        for (char c : name.toCharArray()) {
            out.append(afterLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
            afterLetter = Character.isLetter(c);
        }
        return out.toString();
    }

    /** The body with its length; for a HEAD the length only. */
    private static void finish(Response response, boolean head, byte[] body, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, head ? null : java.nio.ByteBuffer.wrap(body), callback);
    }

    /** A page or script of the console (or the operator's app page), held in memory. */
    private static void sendPage(Console.File file, boolean head, Response response, Callback callback) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, file.contentType());
        file.headers().forEach((k, v) -> response.getHeaders().put(k, v));
        finish(response, head, file.bytes(), callback);
    }

    /** A static file, streamed from disk (never read whole into memory). */
    private static void sendFile(StaticFiles.Found found, boolean head, Response response, Callback callback) throws java.io.IOException {
        long size = java.nio.file.Files.size(found.file());
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, found.contentType());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, size);
        found.headers().forEach((k, v) -> response.getHeaders().put(k, v));
        if (head) {
            response.write(true, null, callback);
        } else {
            Content.copy(Content.Source.from(found.file()), response, callback);
        }
    }
}
