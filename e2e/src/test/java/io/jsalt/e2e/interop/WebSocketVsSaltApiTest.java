package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code GET /ws} (real salt-api 3006.8 with ws4py, beside a real salt-master and salt-minion) against
 * jsalt-api's (beside a jsalt-master and jsalt-minion): the same websocket conversation on both (a message, the
 * ready message, a {@code local_async test.ping}), comparing the frames' format, the tags and the payloads'
 * shapes (keys and value types; jids and times differ by nature), the {@code ?format_events} view, and the
 * refusal of a bad token.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebSocketVsSaltApiTest {
    private static final String MINION = "m1";
    private static final String READY = "websocket client ready";
    private static final String RECEIVED = "server received message";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Processes processes;
    private int saltPort;
    private int jsaltPort;
    private SaltSide salt;
    private JsaltSide jsalt;

    @BeforeAll
    void startBothSides(@TempDir Path root) throws Exception {
        processes = new Processes();
        RealSalt.env();
        Path users = Files.writeString(root.resolve("users"), "thatch:s3cret\n");
        // each API's port stays bound here until its API starts: the masters' own free ports can never take it
        ServerSocket saltHold = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServerSocket jsaltHold = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        saltPort = saltHold.getLocalPort();
        jsaltPort = jsaltHold.getLocalPort();

        salt = new SaltSide(processes, root.resolve("s"));
        salt.startMaster(apiConfig(saltPort, users).toArray(String[]::new));
        salt.startMinion(MINION, salt.publishPort(), salt.retPort());
        jsalt = new JsaltSide(processes, root.resolve("j"));
        jsalt.startMaster(apiConfig(jsaltPort, users).toArray(String[]::new));
        jsalt.startMinion(MINION, jsalt.publishPort(), jsalt.retPort());
        saltHold.close();
        processes.spawn(RealSalt.tool("salt-api", List.of("-c", salt.masterConfigDir().toString())), root.resolve("s/console/salt-api.out"));
        jsaltHold.close();
        processes.spawn(new ProcessBuilder(JsaltSide.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", JsaltSide.CLASSPATH, "io.jsalt.cli.daemon.ApiDaemon", "-c", jsalt.masterConfigDir().toString()),
                root.resolve("j/console/jsalt-api.out"));
        await().atMost(Duration.ofSeconds(90)).until(() -> Processes.listening(saltPort) && Processes.listening(jsaltPort));
        for (int port : new int[] {saltPort, jsaltPort}) {
            String token = login(port);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> lowstate(port, token, "{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":3}")
                            .contains("\"" + MINION + "\""));
        }
    }

    private static List<String> apiConfig(int port, Path users) {
        return List.of("auto_accept: True", "rest_cherrypy:", "  port: " + port, "  host: 127.0.0.1", "  disable_ssl: True",
                "netapi_enable_clients: [local, local_async]",
                "external_auth:", "  file:", "    ^filename: " + users, "    thatch:", "      - test.*");
    }

    @AfterAll
    void stopAll() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    void rawEventsOfAJobArriveAsTheSameDataFramesWithTheSameTagsAndShapes() throws Exception {
        Conversation fromSalt = pingOver(saltPort, "");
        Conversation fromJsalt = pingOver(jsaltPort, "");
        for (Conversation c : List.of(fromSalt, fromJsalt)) {
            // salt-api's SynchronizingWebsocket answers every message, the ready one included, before any event
            assertThat(c.frames.subList(0, 2)).as(c.side).containsExactly(RECEIVED, RECEIVED);
            assertThat(c.events()).as(c.side).allSatisfy(f -> assertThat(f).startsWith("data: {").endsWith("}\n\n"));
        }
        // the publish's announcement under the bare jid, the new-job event and the return, in that order on both
        for (Conversation c : List.of(fromSalt, fromJsalt)) {
            assertThat(c.jobEvents()).as(c.side).extracting(e -> e.get("tag"))
                    .containsExactly("<jid>", "salt/job/<jid>/new", "salt/job/<jid>/ret/" + MINION);
            assertThat(c.jobEvents()).as(c.side).extracting(e -> e.get("keys")).containsOnly(List.of("data", "tag"));
        }
        assertThat(fromJsalt.jobEvents().get(0)).isEqualTo(fromSalt.jobEvents().get(0));
        assertThat(fromSalt.jobEvents().get(0).get("data")).isEqualTo(Map.of("_stamp", "String", "minions", List.of("String")));
        assertThat(fromJsalt.rawData(fromJsalt.jid).get("minions")).isEqualTo(fromSalt.rawData(fromSalt.jid).get("minions"))
                .isEqualTo(List.of(MINION));

        // the new-job event: the same keys; jsalt-master's eauth guard publishes to the list of minions it checked,
        // and that list is what its event (and job record) shows as the target
        Map<?, ?> saltNew = fromSalt.rawData("salt/job/" + fromSalt.jid + "/new");
        Map<?, ?> jsaltNew = fromJsalt.rawData("salt/job/" + fromJsalt.jid + "/new");
        assertThat(without(fromJsalt.jobEvents().get(1), "tgt")).isEqualTo(without(fromSalt.jobEvents().get(1), "tgt"));
        assertThat(List.of(saltNew.get("tgt"), saltNew.get("tgt_type"))).containsExactly(MINION, "glob");
        assertThat(List.of(jsaltNew.get("tgt"), jsaltNew.get("tgt_type"))).containsExactly(List.of(MINION), "list");

        // the return: Salt's carries the publishing user (salt-minion copies it in), jsalt-master's adds "verified"
        // (whether the minion signed its return, docs/interop.md)
        Map<String, Object> saltRet = without(fromSalt.jobEvents().get(2), "user");
        Map<String, Object> jsaltRet = without(fromJsalt.jobEvents().get(2), "verified");
        assertThat(jsaltRet).isEqualTo(saltRet);
        assertThat(fromSalt.rawData("salt/job/" + fromSalt.jid + "/ret/" + MINION).get("user")).isEqualTo("thatch");
        Map<?, ?> jsaltRetData = fromJsalt.rawData("salt/job/" + fromJsalt.jid + "/ret/" + MINION);
        assertThat(jsaltRetData.containsKey("user")).isFalse();
        assertThat(jsaltRetData.get("verified")).isInstanceOf(Boolean.class);
    }

    /** One job event's shape with {@code key} left out of its data. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> without(Map<String, Object> event, String key) {
        Map<String, Object> data = new java.util.TreeMap<>((Map<String, Object>) event.get("data"));
        data.remove(key);
        return Map.of("tag", event.get("tag"), "keys", event.get("keys"), "data", data);
    }

    @Test
    void formatEventsSendsTheSameRunningAndCompleteJobViews() throws Exception {
        Conversation fromSalt = pingOver(saltPort, "?format_events");
        Conversation fromJsalt = pingOver(jsaltPort, "?format_events");
        // the same views but for the target, which is the one of the new-job event (see the raw test above)
        assertThat(fromJsalt.jobViews()).extracting(v -> withoutTgt(v))
                .isEqualTo(fromSalt.jobViews().stream().map(v -> withoutTgt(v)).toList());
        assertThat(fromSalt.jobViews()).extracting(v -> v.get("tgt")).containsOnly("String");
        assertThat(fromJsalt.jobViews()).extracting(v -> v.get("tgt")).containsOnly(List.of("String"));
        List<Map<String, Object>> views = fromSalt.jobViews();
        assertThat(views).extracting(v -> v.get("state")).containsExactly("String", "String");
        for (Conversation c : List.of(fromSalt, fromJsalt)) {
            // the raw state values, which shapes do not show: running at new, complete once the one minion returned
            assertThat(c.jobStates()).as(c.side).containsExactly("running", "complete");
        }
    }

    private static Map<String, Object> withoutTgt(Map<String, Object> view) {
        Map<String, Object> copy = new java.util.TreeMap<>(view);
        copy.remove("tgt");
        return copy;
    }

    @Test
    void aBadOrMissingTokenIsRefusedWith401BeforeTheUpgradeOnBoth() throws Exception {
        for (String path : List.of("/ws/" + "ab".repeat(20), "/ws")) {
            for (int port : new int[] {saltPort, jsaltPort}) {
                Throwable refused = catchThrowable(() -> http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                        .buildAsync(URI.create("ws://127.0.0.1:" + port + path), new Collector()).get(30, TimeUnit.SECONDS));
                assertThat(refused).as(port + path).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(WebSocketHandshakeException.class);
                HttpResponse<?> answer = ((WebSocketHandshakeException) refused.getCause()).getResponse();
                assertThat(answer.statusCode()).as(port + path).isEqualTo(401);
            }
        }
    }

    @Test
    void aJobOfRootReachesTheSaltApiSocketOfAnyUserButNotTheJsaltApiOneOfAUserWithoutEvents() throws Exception {
        // jsalt's deliberate difference: a user without @events reads only the events of their own jobs
        // (event_access); salt-api streams the whole bus, root's jobs included, to any valid token
        Conversation s = pingOver(saltPort, "", () -> assertThat(salt.salt(MINION, "test.echo", "by-root", "--out", "json",
                "--static", "-t", "30").stdout()).contains("by-root"));
        Conversation j = pingOver(jsaltPort, "", () -> assertThat(jsalt.jsalt(MINION, "test.echo", "by-root", "--out", "json",
                "--static", "-t", "30").stdout()).contains("by-root"));
        // the bus is streamed in order: root's job came before the user's own return, which both sockets got
        assertThat(String.join("", s.events())).contains("\"fun\": \"test.echo\"").contains("by-root");
        assertThat(String.join("", j.events())).doesNotContain("by-root").doesNotContain("test.echo");
        assertThat(j.jobEvents()).hasSize(3);
    }

    /** Something done on one side while its socket streams, before the user's job. */
    private interface Step {
        void run() throws Exception;
    }

    private Conversation pingOver(int port, String query) throws Exception {
        return pingOver(port, query, () -> { });
    }

    /**
     * Opens {@code /ws/<token>}, says a word and the ready message, does {@code before}, runs a local_async
     * test.ping as the user, and waits for its return.
     */
    private Conversation pingOver(int port, String query, Step before) throws Exception {
        String token = login(port);
        Collector frames = new Collector();
        WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/" + token + query), frames).get(30, TimeUnit.SECONDS);
        try {
            ws.sendText("hello", true).get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> frames.texts.size() == 1);
            ws.sendText(READY, true).get(10, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> frames.texts.size() == 2);
            before.run();
            String answer = lowstate(port, token, "{\"client\":\"local_async\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}");
            String jid = String.valueOf(((Map<?, ?>) ((List<?>) Json.object(answer).get("return")).get(0)).get("jid"));
            assertThat(jid).as(answer).matches("\\d{20}");
            Conversation c = new Conversation(port == saltPort ? "salt-api" : "jsalt-api", jid, frames.texts);
            await().atMost(Duration.ofSeconds(30)).until(c::complete);
            return new Conversation(c.side, jid, List.copyOf(frames.texts));
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        }
    }

    /** What one socket received (text frames in order), read for one job's events. */
    private record Conversation(String side, String jid, List<String> frames) {
        List<String> events() {
            return frames.subList(2, frames.size());
        }

        boolean complete() {
            return frames.stream().anyMatch(f -> f.contains("salt/job/" + jid + "/ret/" + MINION))
                    || jobStates().contains("complete");
        }

        /** The job's raw events (tag with the jid made a placeholder, shape of the data), in order of arrival. */
        List<Map<String, Object>> jobEvents() {
            List<Map<String, Object>> out = new ArrayList<>();
            for (String f : events()) {
                Map<String, Object> event = Json.object(f.substring("data: ".length()));
                String tag = String.valueOf(event.get("tag"));
                if (tag.contains(jid)) {
                    out.add(Map.of("tag", tag.replace(jid, "<jid>"), "keys", event.keySet().stream().sorted().toList(),
                            "data", RestApiShapesVsSaltApiTest.shape(event.get("data"))));
                }
            }
            return out;
        }

        /** The data of this job's event with {@code tag}, as sent. */
        Map<?, ?> rawData(String tag) {
            for (String f : events()) {
                Map<String, Object> event = Json.object(f.substring("data: ".length()));
                if (tag.equals(event.get("tag"))) {
                    return (Map<?, ?>) event.get("data");
                }
            }
            throw new AssertionError(side + " sent no " + tag + ": " + frames);
        }

        /** The shapes of this job's entry in each {@code {"jobs": ...}} view of the formatted stream. */
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> jobViews() {
            return jobEntries().stream().map(j -> (Map<String, Object>) RestApiShapesVsSaltApiTest.shape(j)).toList();
        }

        List<Object> jobStates() {
            return jobEntries().stream().map(j -> (Object) j.get("state")).toList();
        }

        private List<Map<?, ?>> jobEntries() {
            List<Map<?, ?>> out = new ArrayList<>();
            for (String f : frames) {
                if (f.startsWith("{")) {
                    Object jobs = Json.object(f).get("jobs");
                    if (jobs instanceof Map<?, ?> byJid && byJid.get(jid) instanceof Map<?, ?> job) {
                        out.add(job);
                    }
                }
            }
            return out;
        }
    }

    /** Collects whole text messages (a message may come in parts). */
    private static final class Collector implements WebSocket.Listener {
        final List<String> texts = new CopyOnWriteArrayList<>();
        private final StringBuilder part = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                texts.add(part.toString());
                part.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    private String login(int port) throws Exception {
        String body = post(port, "/login", null, "{\"username\":\"thatch\",\"password\":\"s3cret\",\"eauth\":\"file\"}");
        return String.valueOf(((Map<?, ?>) ((List<?>) Json.object(body).get("return")).get(0)).get("token"));
    }

    private String lowstate(int port, String token, String chunk) throws Exception {
        return post(port, "/", token, "[" + chunk + "]");
    }

    private String post(int port, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
