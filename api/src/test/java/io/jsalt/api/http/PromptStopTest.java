package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.api.ApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping jsalt-api while event streams are open: the streams are ended first, so the stop does not wait out
 * Jetty's graceful timeout ({@code 5 s}) for the workers that hold them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PromptStopTest {
    /** Well under the server's 5 s stop timeout: a stop that waited for the streams' workers could not make it. */
    private static final Duration PROMPT = Duration.ofSeconds(3);
    private static final Map<String, Object> NO_OWN_USERS = Map.of("file", Map.of("^filename", "/nonexistent"));

    private ApiCluster cluster;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "watcher:watchpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of("^filename", users.toString(),
                "watcher", List.of("test.ping", "@events"))), List.of("local"));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void stopWithAnOpenEventStreamAndWebsocketEndsThemAndReturnsPromptly() throws Exception {
        ApiServer api = cluster.anotherApi(NO_OWN_USERS, List.of("local"), c -> c);
        String base = "http://127.0.0.1:" + api.port();
        String token = login(base);

        Queue<String> lines = new ConcurrentLinkedQueue<>();
        http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/events")).header("X-Auth-Token", token).GET().build(),
                HttpResponse.BodyHandlers.ofLines()).thenAcceptAsync(r -> {
                    try (Stream<String> body = r.body()) {
                        body.forEach(lines::add);
                    } catch (RuntimeException e) {
                        // the server ended the stream: marked below either way
                    }
                    lines.add("<end>");
                });
        WebSocketEventsTest.Frames frames = new WebSocketEventsTest.Frames();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(base.replace("http:", "ws:") + "/ws/" + token), frames)
                .get(20, TimeUnit.SECONDS);
        ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains("retry: 400") && frames.contains("server received message"));

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(api::close);
        await().atMost(PROMPT).until(stopping::isDone);
        await().atMost(PROMPT).until(() -> lines.contains("<end>") && frames.closedWith != -1);
        assertThat(stopping).isNotCompletedExceptionally();
    }

    private String login(String base) throws Exception {
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base + "/login")).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"username\":\"watcher\",\"password\":\"watchpw\",\"eauth\":\"file\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        return login.headers().firstValue("X-Auth-Token").orElseThrow();
    }
}
