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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code rest_cherrypy:root_prefix}: the whole API, the console, webhooks, {@code /events} and
 * {@code /ws} under one path (salt-api 3006.8 mounts its CherryPy app there), and nothing outside it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RootPrefixTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ApiCluster cluster;
    private ApiServer api;
    private String base;

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "watcher:watchpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of("^filename", users.toString(), "watcher", List.of("@events"))),
                List.of("local"));
        api = cluster.anotherApi(Map.of("file", Map.of("^filename", "/nonexistent")), List.of("local"), c -> c.withRootPrefix("/salt"));
        base = "http://127.0.0.1:" + api.port();
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theApiAnswersUnderThePrefixAndNothingOutsideIt() throws Exception {
        assertThat(get("/salt/").body()).contains("Welcome");
        for (String outside : List.of("/", "/minions", "/app", "/events", "/saltish/")) {
            assertThat(get(outside).statusCode()).as(outside).isEqualTo(404);
        }
        // CherryPy redirects the bare mount point to its slash; Jetty's context does the same
        HttpResponse<String> bare = get("/salt");
        assertThat(bare.statusCode()).isBetween(301, 302);
        assertThat(bare.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/salt/"));
        String token = login();
        HttpResponse<String> stats = http.send(HttpRequest.newBuilder(URI.create(base + "/salt/stats")).header("X-Auth-Token", token)
                .header("Accept", "application/json").timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stats.statusCode()).isEqualTo(200);
    }

    @Test
    void theConsoleIsUnderThePrefixAndCallsTheApiThere() throws Exception {
        HttpResponse<String> page = get("/salt/app");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script type=\"module\" src=\"/salt/app/app.js\"></script>",
                "<link rel=\"stylesheet\" href=\"/salt/app/app.css\">", "<meta name=\"jsalt-root-prefix\" content=\"/salt\">");
        assertThat(get("/salt/app/api.js").body()).contains("fetch(ROOT + path");
    }

    @Test
    void eventsWebhooksAndWebsocketsAreUnderThePrefix() throws Exception {
        String token = login();
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/salt/events")).header("X-Auth-Token", token).GET().build(),
                HttpResponse.BodyHandlers.ofLines()).thenAcceptAsync(r -> {
                    try (Stream<String> body = r.body()) {
                        body.forEach(lines::add);
                    } catch (RuntimeException e) {
                        // closed when the test ends
                    }
                });
        await().atMost(WAIT).until(() -> lines.contains("retry: 400"));
        HttpResponse<String> hook = http.send(HttpRequest.newBuilder(URI.create(base + "/salt/hook/ci")).header("X-Auth-Token", token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(hook.statusCode()).as(hook.body()).isEqualTo(200);
        await().atMost(WAIT).until(() -> lines.contains("tag: salt/netapi/hook/ci"));

        WebSocketEventsTest.Frames frames = new WebSocketEventsTest.Frames();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(base.replace("http:", "ws:") + "/salt/ws/" + token), frames)
                .get(20, TimeUnit.SECONDS);
        ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> frames.contains("server received message"));
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    private String login() throws Exception {
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base + "/salt/login")).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"username\":\"watcher\",\"password\":\"watchpw\",\"eauth\":\"file\"}")).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        return login.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", "application/json").timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
