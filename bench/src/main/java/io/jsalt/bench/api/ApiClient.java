package io.jsalt.bench.api;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.eclipse.jetty.util.ajax.JSON;

/** The benchmark's HTTP client of salt-api's interface (both sides speak it): login, lowstate, event streams. */
final class ApiClient {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    ApiClient(String base) {
        this.base = base;
    }

    /** The token of {@link ApiStack#USER}, or null while the API does not answer yet. */
    String login() {
        try {
            HttpResponse<String> r = post("/login", null, "{\"username\":\"" + ApiStack.USER + "\",\"password\":\"" + ApiStack.PASSWORD
                    + "\",\"eauth\":\"file\"}", Duration.ofSeconds(30));
            return r.statusCode() == 200 ? r.headers().firstValue("X-Auth-Token").orElse(null) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** A lowstate call; the status and the body. */
    HttpResponse<String> lowstate(String token, String chunks, Duration timeout) throws IOException {
        return post("/", token, chunks, timeout);
    }

    /** How many minions answered in the first element of {@code return} ({@code {minion: return}}); -1 when unreadable. */
    static int answered(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            return -1;
        }
        try {
            Object ret = ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return");
            return ((Map<?, ?>) ((Object[]) ret)[0]).size();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The jid of a {@code local_async} answer. */
    static String jid(HttpResponse<String> r) {
        Object ret = ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return");
        return String.valueOf(((Map<?, ?>) ((Object[]) ret)[0]).get("jid"));
    }

    /** Opens {@code GET /events?token=}; every line goes to {@code lines} with its arrival time (System.nanoTime). */
    CompletableFuture<HttpResponse<Stream<String>>> events(String token, Queue<Line> lines) {
        CompletableFuture<HttpResponse<Stream<String>>> response = http.sendAsync(
                HttpRequest.newBuilder(URI.create(base + "/events?token=" + token)).GET().build(), HttpResponse.BodyHandlers.ofLines());
        response.thenAcceptAsync(r -> {
            try (Stream<String> body = r.body()) {
                body.forEach(l -> lines.add(new Line(System.nanoTime(), l)));
            } catch (RuntimeException e) {
                // closed at the end of the run
            }
        });
        return response;
    }

    record Line(long nanos, String text) {}

    static Queue<Line> newLines() {
        return new ConcurrentLinkedQueue<>();
    }

    private HttpResponse<String> post(String path, String token, String json, Duration timeout) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
