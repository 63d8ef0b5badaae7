package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.api.ApiServer;
import io.jsalt.api.events.EventLimits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code GET /ws} against a real master and minion (in this JVM, on loopback), with the JDK's own
 * websocket client: the token in the path or the header, the ready handshake, a user's own events and not
 * another user's, {@code format_events}, and 401 without a live token.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebSocketEventsTest {
    private static final String MINION = "ws1";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ApiCluster cluster;
    private Map<String, Object> eauth;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startCluster(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\n");
        eauth = Map.of("file", Map.of(
                "^filename", users.toString(),
                "admin", List.of("test.*"),
                "pinger", List.of("test.ping")));
        cluster = new ApiCluster(root).start(eauth, List.of("local"), MINION);
        String token = login("admin", "adminpw");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> a = post(token, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":2}]");
            return a.statusCode() == 200 && a.body().contains(MINION);
        });
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void withoutALiveTokenTheUpgradeIsRefused401() {
        for (String path : List.of("/ws", "/ws/00ff00ff", "/ws/not-hex")) {
            assertThatThrownBy(() -> open(path, null, new Frames())).as(path).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(WebSocketHandshakeException.class)
                    .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(401));
        }
    }

    @Test
    void afterTheReadyMessageEachEventTheUserMayReadIsADataFrameAndAnotherUsersJobIsNot() throws Exception {
        String admin = login("admin", "adminpw");
        String pinger = login("pinger", "pingpw");
        Frames frames = new Frames();
        WebSocket ws = open("/ws/" + admin, null, frames);
        ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> frames.contains("server received message"));

        // the other user's job first (its return is on the bus before the admin's job is even published), then the admin's own
        String othersJid = jid(post(pinger, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"full_return\":true}]"));
        String ownJid = jid(post(admin, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.echo\",\"arg\":[\"ws\"],"
                + "\"full_return\":true}]"));

        String tag = "salt/job/" + ownJid + "/ret/" + MINION;
        await().atMost(WAIT).until(() -> frames.stream().anyMatch(f -> f.contains("\"tag\":\"" + tag + "\"")));
        String frame = frames.stream().filter(f -> f.contains("\"tag\":\"" + tag + "\"")).findFirst().orElseThrow();
        assertThat(frame).startsWith("data: ").endsWith("\n\n");
        Map<?, ?> event = (Map<?, ?>) new JSON().fromJSON(frame.substring("data: ".length()).strip());
        assertThat(event.get("tag")).isEqualTo(tag);
        assertThat(((Map<?, ?>) event.get("data")).get("return")).isEqualTo("ws");
        assertThat(frames).anyMatch(f -> f.contains("\"tag\":\"salt/job/" + ownJid + "/new\""));
        // Salt's announcement under the bare jid is the job's too (the other user's is not shown: no frame has its jid)
        assertThat(frames).anyMatch(f -> f.contains("\"tag\":\"" + ownJid + "\"") && f.contains("\"minions\":[\"" + MINION + "\"]"));
        assertThat(frames).noneMatch(f -> f.contains(othersJid));
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    @Test
    void theSessionCookieCountsFromNoPageOrTheApisOwnPageButNotFromAnotherSitesPage() throws Exception {
        String admin = login("admin", "adminpw");
        String own = cluster.baseUrl();
        for (String origin : new String[] {null, own}) {
            WebSocket.Builder b = http.newWebSocketBuilder().header("Cookie", "session_id=" + admin);
            if (origin != null) {
                b.header("Origin", origin);
            }
            Frames frames = new Frames();
            WebSocket ws = b.buildAsync(URI.create(own.replace("http:", "ws:") + "/ws"), frames).get(20, TimeUnit.SECONDS);
            ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> frames.contains("server received message"));
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        }
        assertThatThrownBy(() -> http.newWebSocketBuilder().header("Cookie", "session_id=" + admin).header("Origin", "https://evil.example")
                .buildAsync(URI.create(own.replace("http:", "ws:") + "/ws"), new Frames()).get(20, TimeUnit.SECONDS))
                .cause().isInstanceOf(WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(401));
        // the token in the path is the page's own knowledge, not the browser's: any origin may use it
        WebSocket other = http.newWebSocketBuilder().header("Origin", "https://console.example")
                .buildAsync(URI.create(own.replace("http:", "ws:") + "/ws/" + admin), new Frames()).get(20, TimeUnit.SECONDS);
        other.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    @Test
    void nothingIsStreamedBeforeTheClientSaysItIsReady() throws Exception {
        String admin = login("admin", "adminpw");
        Frames frames = new Frames();
        WebSocket ws = open("/ws", admin, frames); // the X-Auth-Token header instead of the path
        ws.sendText("hello", true).get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> frames.contains("server received message"));
        String early = jid(post(admin, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"full_return\":true}]"));

        ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
        String late = jid(post(admin, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"full_return\":true}]"));

        await().atMost(WAIT).until(() -> frames.stream().anyMatch(f -> f.contains("salt/job/" + late + "/ret/" + MINION)));
        assertThat(frames).noneMatch(f -> f.contains(early));
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSocketThatNeverAsksForItsStreamGivesItsSlotBack() throws Exception {
        String admin = login("admin", "adminpw");
        Frames frames = new Frames();
        WebSocket ws = open("/ws/" + admin, null, frames);
        // talks, but never says it is ready: its token would never be checked again, so it may not hold a slot
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> {
            if (frames.closedWith < 0) {
                ws.sendText("still here", true).exceptionally(e -> null);
            }
            return frames.closedWith == 1008;
        });
        await().atMost(WAIT).until(() -> openStreams(admin) == 0);
    }

    @Test
    void aSilentSocketIsClosedAtTheReadyDeadlineAndGivesItsSlotBack() throws Exception {
        String admin = login("admin", "adminpw");
        Frames frames = new Frames();
        open("/ws/" + admin, null, frames); // says nothing at all, and the client's pings keep it from idling out
        await().atMost(WAIT).until(() -> frames.closedWith == 1008);
        await().atMost(WAIT).until(() -> openStreams(admin) == 0);
    }

    @Test
    void formatEventsSendsSaltApisRunningViewOfTheUsersJobs() throws Exception {
        String admin = login("admin", "adminpw");
        Frames frames = new Frames();
        WebSocket ws = open("/ws/" + admin + "?format_events", null, frames);
        ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> frames.contains("server received message"));

        String jid = jid(post(admin, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"full_return\":true}]"));

        await().atMost(WAIT).until(() -> frames.stream().anyMatch(f -> f.contains(jid) && f.contains("\"complete\"")));
        String last = frames.stream().filter(f -> f.contains(jid) && f.contains("\"complete\"")).findFirst().orElseThrow();
        Map<?, ?> job = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(last)).get("jobs")).get(jid);
        assertThat(job.get("fun")).isEqualTo("test.ping");
        assertThat(job.get("state")).isEqualTo("complete");
        Map<?, ?> minion = (Map<?, ?>) ((Map<?, ?>) job.get("minions")).get(MINION);
        assertThat(minion.get("return")).isEqualTo(true);
        assertThat(minion.get("success")).isEqualTo(true);
        assertThat(frames).noneMatch(f -> f.startsWith("data: "));
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    @Test
    void websocketsAndEventStreamsShareOneBoundOfMaxEventStreams() throws Exception {
        String admin = login("admin", "adminpw");
        int max = 3;
        try (ApiServer small = cluster.anotherApi(eauth, List.of("local"), c -> c.withEventLimits(new EventLimits(max, 256)))) {
            String base = "http://127.0.0.1:" + small.port();
            List<WebSocket> held = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < max; i++) {
                    held.add(open(base, "/ws/" + admin, null, new Frames()));
                }
                await().atMost(WAIT).until(() -> openStreams(base, admin) == max);
                HttpResponse<String> events = http.send(HttpRequest.newBuilder(URI.create(base + "/events?token=" + admin))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(events.statusCode()).isEqualTo(503);
                Frames refused = new Frames();
                open(base, "/ws/" + admin, null, refused);
                await().atMost(WAIT).until(() -> refused.closedWith == 1013);

                held.remove(0).sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
                await().atMost(WAIT).until(() -> openStreams(base, admin) == max - 1);
                Frames again = new Frames();
                held.add(open(base, "/ws/" + admin, null, again));
                held.get(held.size() - 1).sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
                await().atMost(WAIT).until(() -> again.contains("server received message"));
            } finally {
                for (WebSocket ws : held) {
                    ws.abort();
                }
            }
            await().atMost(WAIT).until(() -> openStreams(base, admin) == 0);
        }
    }

    /** The streams open now, as {@code GET /stats} counts them. */
    private long openStreams(String token) throws Exception {
        return openStreams(cluster.baseUrl(), token);
    }

    private long openStreams(String base, String token) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/stats")).header("X-Auth-Token", token)
                .header("Accept", "application/json").timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ((Number) ((Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("jsalt-api")).get("Event Streams")).longValue();
    }

    /** Every text message the server sent, whole. */
    static final class Frames extends ConcurrentLinkedQueue<String> implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();
        volatile int closedWith = -1;

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closedWith = statusCode;
            return null;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    private WebSocket open(String path, String header, Frames frames) throws Exception {
        return open(cluster.baseUrl(), path, header, frames);
    }

    private WebSocket open(String base, String path, String header, Frames frames) throws Exception {
        WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (header != null) {
            b.header("X-Auth-Token", header);
        }
        return b.buildAsync(URI.create(base.replace("http:", "ws:") + path), frames).get(20, TimeUnit.SECONDS);
    }

    private static String jid(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<?, ?> byMinion = (Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return"))[0];
        return String.valueOf(((Map<?, ?>) byMinion.get(MINION)).get("jid"));
    }

    private String login(String user, String password) throws Exception {
        HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/login"))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + user + "\",\"password\":\"" + password
                        + "\",\"eauth\":\"file\"}")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
        return a.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> post(String token, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "application/json").header("Accept", "application/json").header("X-Auth-Token", token)
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
