package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.api.ApiServer;
import io.jsalt.api.events.EventHub;
import io.jsalt.api.events.EventLimits;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event streams ({@code GET /events}, {@code GET /ws}) share one master event subscription per token: seen through
 * the master's own count of its event socket's readers and the API's {@code /stats}, against a real master and
 * minion in this JVM. Each stream still gets every event it may read, in order; users see only their own; a slow
 * client is cut off alone; a dead token ends its own streams only; streams past the 56 subscriptions are accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedEventStreamsTest {
    private static final String MINION = "shared1";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ApiCluster cluster;
    private Map<String, Object> eauth;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startCluster(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\n");
        eauth = Map.of("file", Map.of(
                "^filename", users.toString(),
                "admin", List.of("@events", "test.*"),
                "pinger", List.of("test.ping")));
        cluster = new ApiCluster(root).start(eauth, List.of("local", "local_async"), MINION);
        String token = login("admin", "adminpw");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> a = post(cluster.baseUrl(), token,
                    "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":2}]");
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
    void manyStreamsOfOneTokenShareOneMasterSubscriptionAndEachGetsEveryEventInOrder() throws Exception {
        String admin = login("admin", "adminpw");
        awaitNoMasterReaders();
        int sse = EventHub.MAX_SUBSCRIPTIONS + 8; // past the old bound of 56 streams
        List<Lines> streams = new ArrayList<>();
        List<WebSocket> sockets = new ArrayList<>();
        List<WebSocketEventsTest.Frames> frames = new ArrayList<>();
        try {
            for (int i = 0; i < sse; i++) {
                streams.add(Lines.open(http, cluster.baseUrl(), admin));
            }
            for (int i = 0; i < 4; i++) {
                WebSocketEventsTest.Frames f = new WebSocketEventsTest.Frames();
                WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(cluster.baseUrl().replace("http:", "ws:")
                        + "/ws/" + admin), f).get(20, TimeUnit.SECONDS);
                ws.sendText(WebSocketEvents.READY, true).get(10, TimeUnit.SECONDS);
                sockets.add(ws);
                frames.add(f);
            }
            for (Lines s : streams) {
                await().atMost(WAIT).until(() -> s.lines.contains("retry: 400"));
            }
            for (WebSocketEventsTest.Frames f : frames) {
                await().atMost(WAIT).until(() -> f.contains(WebSocketEvents.RECEIVED)); // answered once joined
            }
            assertThat(stat(cluster.baseUrl(), admin, "Event Streams")).isEqualTo(sse + 4);
            assertThat(stat(cluster.baseUrl(), admin, "Event Subscriptions")).isEqualTo(1);
            assertThat(cluster.master().localEventReaders()).isEqualTo(1);

            List<String> fired = IntStream.range(0, 20).mapToObj(i -> "jsalt/test/shared/" + i).toList();
            fired.forEach(tag -> cluster.master().events().fire(tag, Map.of("n", tag)));

            for (Lines s : streams) {
                await().atMost(WAIT).until(() -> s.tags("jsalt/test/shared/").size() == fired.size());
                assertThat(s.tags("jsalt/test/shared/")).containsExactlyElementsOf(fired);
            }
            for (WebSocketEventsTest.Frames f : frames) {
                await().atMost(WAIT).until(() -> wsTags(f).size() == fired.size());
                assertThat(wsTags(f)).containsExactlyElementsOf(fired);
            }
            assertThat(cluster.master().localEventReaders()).isEqualTo(1);
        } finally {
            streams.forEach(Lines::close);
            sockets.forEach(WebSocket::abort);
        }
        // the last stream leaving closes the subscription, on the master too
        awaitNoStreams(cluster.baseUrl(), admin);
        awaitNoMasterReaders();
    }

    @Test
    void twoUsersWithDifferentRightsEachSeeOnlyTheirOwnThroughTheirOwnSubscription() throws Exception {
        String pinger = login("pinger", "pingpw");
        String admin = login("admin", "adminpw");
        awaitNoMasterReaders();
        List<Lines> pingers = List.of(Lines.open(http, cluster.baseUrl(), pinger), Lines.open(http, cluster.baseUrl(), pinger));
        List<Lines> admins = List.of(Lines.open(http, cluster.baseUrl(), admin), Lines.open(http, cluster.baseUrl(), admin));
        try {
            for (Lines s : concat(pingers, admins)) {
                await().atMost(WAIT).until(() -> s.lines.contains("retry: 400"));
            }
            assertThat(stat(cluster.baseUrl(), admin, "Event Subscriptions")).isEqualTo(2);
            assertThat(cluster.master().localEventReaders()).isEqualTo(2);

            String adminJid = asyncPing(admin);
            String pingerJid = asyncPing(pinger);
            cluster.master().events().fire("jsalt/test/bus", Map.of("to", "whoever may read the whole bus"));
            for (Lines s : concat(pingers, admins)) {
                String own = pingers.contains(s) ? pingerJid : adminJid;
                await().atMost(WAIT).until(() -> s.lines.contains("tag: salt/job/" + own + "/ret/" + MINION));
            }
            for (Lines s : admins) {
                await().atMost(WAIT).until(() -> s.lines.contains("tag: jsalt/test/bus"));
                // the admin's right is @events: the whole bus, the pinger's job too
                await().atMost(WAIT).until(() -> s.lines.contains("tag: salt/job/" + pingerJid + "/ret/" + MINION));
            }
            for (Lines s : pingers) {
                assertThat(s.lines).noneMatch(l -> l.contains(adminJid)).doesNotContain("tag: jsalt/test/bus");
            }
        } finally {
            concat(pingers, admins).forEach(Lines::close);
        }
        awaitNoStreams(cluster.baseUrl(), admin);
    }

    @Test
    void aSlowClientIsCutOffWithoutHoldingBackTheOtherStreamsOfItsSubscription() throws Exception {
        String admin = login("admin", "adminpw");
        int buffer = 4;
        try (ApiServer small = cluster.anotherApi(eauth, List.of("local"), c -> c.withEventLimits(new EventLimits(100, buffer)));
                Socket slow = new Socket()) {
            String base = "http://127.0.0.1:" + small.port();
            Lines fast = Lines.open(http, base, admin);
            await().atMost(WAIT).until(() -> fast.lines.contains("retry: 400"));
            // asks for the stream and never reads it: its window closes, then the server's socket buffer fills
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress("127.0.0.1", small.port()), 5_000);
            OutputStream out = slow.getOutputStream();
            out.write(("GET /events?token=" + admin + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(WAIT).until(() -> stat(base, admin, "Event Streams") == 2);
            assertThat(stat(base, admin, "Event Subscriptions")).isEqualTo(1);

            String blob = "x".repeat(256 * 1024);
            int fired = 0;
            // each event reaches the fast client while the slow one is stuck, until the slow one is cut off
            while (stat(base, admin, "Slow Streams Cut") == 0) {
                assertThat(fired).as("events fired without the slow client being cut off").isLessThan(400);
                String tag = "jsalt/test/slow/" + fired;
                cluster.master().events().fire(tag, Map.of("blob", blob));
                await().atMost(Duration.ofSeconds(10)).until(() -> fast.lines.contains("tag: " + tag));
                fired++;
            }
            int cutAfter = fired;
            for (int i = 0; i < 3; i++) {
                String tag = "jsalt/test/slow/" + fired++;
                cluster.master().events().fire(tag, Map.of("blob", "after"));
                await().atMost(Duration.ofSeconds(10)).until(() -> fast.lines.contains("tag: " + tag));
            }
            assertThat(fast.tags("jsalt/test/slow/")).containsExactlyElementsOf(
                    IntStream.range(0, fired).mapToObj(i -> "jsalt/test/slow/" + i).toList());
            assertThat(stat(base, admin, "Event Subscriptions")).isEqualTo(1);

            // the slow client, once it reads, finds what fitted in the socket buffers, then the end and why
            String seen = readUntil(slow, ": the client fell too far behind the event bus\n\n");
            assertThat(seen.contains("tag: jsalt/test/slow/0\n")).as("the first event reached the slow client").isTrue();
            assertThat(seen.contains("tag: jsalt/test/slow/" + cutAfter + "\n")).as("an event after the cut reached it").isFalse();
            await().atMost(WAIT).until(() -> stat(base, admin, "Event Streams") == 1);
            fast.close();
            awaitNoStreams(base, admin);
        }
    }

    @Test
    void aDeadTokenEndsItsOwnStreamsOnly() throws Exception {
        String leaving = login("admin", "adminpw");
        String staying = login("admin", "adminpw"); // the same user's other login keeps its streams
        String pinger = login("pinger", "pingpw");
        cluster.rewriteMasterConfig(Map.of("token_expire", 6));
        String[] got = new String[1];
        try {
            // the master reads its config file again when it changes: a login soon gets the short lifetime
            await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
                got[0] = login("pinger", "pingpw");
                return lastLifetime <= 6;
            });
        } finally {
            cluster.rewriteMasterConfig(Map.of());
        }
        String expiring = got[0];
        List<Lines> gone = List.of(Lines.open(http, cluster.baseUrl(), leaving), Lines.open(http, cluster.baseUrl(), leaving),
                Lines.open(http, cluster.baseUrl(), expiring));
        List<Lines> kept = List.of(Lines.open(http, cluster.baseUrl(), staying), Lines.open(http, cluster.baseUrl(), pinger));
        try {
            for (Lines s : concat(gone, kept)) {
                await().atMost(WAIT).until(() -> s.lines.contains("retry: 400") || s.ended);
            }
            assertThat(post(cluster.baseUrl() + "/logout", leaving, "{}").statusCode()).isEqualTo(200);
            for (Lines s : gone) {
                await().atMost(WAIT).until(() -> s.ended);
                assertThat(s.lines).contains(": the token is no longer valid");
            }
            String pingerJid = asyncPing(pinger);
            cluster.master().events().fire("jsalt/test/after", Map.of());
            await().atMost(WAIT).until(() -> kept.get(0).lines.contains("tag: jsalt/test/after"));
            await().atMost(WAIT).until(() -> kept.get(1).lines.contains("tag: salt/job/" + pingerJid + "/ret/" + MINION));
            assertThat(kept).noneMatch(s -> s.ended);
            assertThat(stat(cluster.baseUrl(), staying, "Event Subscriptions")).isEqualTo(2);
        } finally {
            concat(gone, kept).forEach(Lines::close);
        }
        awaitNoStreams(cluster.baseUrl(), staying);
    }

    @Test
    void pastTheSubscriptionBoundANewTokenIsRefusedAndAnotherStreamOfAStreamingTokenIsNot() throws Exception {
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i <= EventHub.MAX_SUBSCRIPTIONS; i++) {
            tokens.add(login("pinger", "pingpw"));
        }
        List<Lines> streams = new ArrayList<>();
        try {
            for (String token : tokens.subList(0, EventHub.MAX_SUBSCRIPTIONS)) {
                streams.add(Lines.open(http, cluster.baseUrl(), token));
            }
            for (Lines s : streams) {
                await().atMost(WAIT).until(() -> s.lines.contains("retry: 400"));
            }
            HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token="
                    + tokens.get(EventHub.MAX_SUBSCRIPTIONS))).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("Too many event subscriptions");
            Lines another = Lines.open(http, cluster.baseUrl(), tokens.get(0));
            streams.add(another);
            await().atMost(WAIT).until(() -> another.lines.contains("retry: 400"));
            assertThat(stat(cluster.baseUrl(), tokens.get(0), "Event Subscriptions")).isEqualTo(EventHub.MAX_SUBSCRIPTIONS);
        } finally {
            streams.forEach(Lines::close);
        }
        awaitNoStreams(cluster.baseUrl(), tokens.get(0));
    }

    /**
     * Waits until the API at {@code base} has no stream and no subscription open. A closed client is found at the
     * next write to it: events are fired meanwhile so that streams reading the whole bus find out at once (the
     * others at their next keep-alive).
     */
    private void awaitNoStreams(String base, String token) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            cluster.master().events().fire("jsalt/test/flush", Map.of());
            return stat(base, token, "Event Streams") == 0 && stat(base, token, "Event Subscriptions") == 0;
        });
    }

    /**
     * Waits until the master holds no reader of its event socket, as it should once no stream of this API is open.
     * The master finds a reader gone when it next writes to it: an event is fired each time to let it see.
     */
    private void awaitNoMasterReaders() {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            cluster.master().events().fire("jsalt/test/flush", Map.of());
            return cluster.master().localEventReaders() == 0;
        });
    }

    /** The events a websocket carried, by tag, in the order they came. */
    private static List<String> wsTags(WebSocketEventsTest.Frames frames) {
        return frames.stream().filter(f -> f.startsWith("data: ")).map(f -> (Map<?, ?>) new JSON().fromJSON(f.substring(6).trim()))
                .map(e -> String.valueOf(e.get("tag"))).filter(t -> t.startsWith("jsalt/test/shared/")).toList();
    }

    /** Reads the raw socket until {@code end} arrives (bounded by the socket's timeout). */
    private static String readUntil(Socket socket, String end) throws Exception {
        socket.setSoTimeout(20_000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        byte[] chunk = new byte[65_536];
        try {
            for (int n; (n = in.read(chunk)) > 0; ) {
                seen.write(chunk, 0, n);
                if (seen.toString(StandardCharsets.UTF_8).contains(end)) {
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            // what came is checked below
        }
        String text = seen.toString(StandardCharsets.UTF_8);
        assertThat(text.contains(end)).as("%s in the %d characters read, which end with %s", end, text.length(),
                text.substring(Math.max(0, text.length() - 200)).replace("x", "")).isTrue();
        return text;
    }

    /** The lifetime of the token the last {@link #login} got, in seconds ({@code expire - start}). */
    private volatile long lastLifetime = Long.MAX_VALUE;

    private long stat(String base, String token, String name) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/stats")).header("X-Auth-Token", token)
                .header("Accept", "application/json").timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ((Number) ((Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("jsalt-api")).get(name)).longValue();
    }

    private String asyncPing(String token) throws Exception {
        HttpResponse<String> r = post(cluster.baseUrl(), token, "[{\"client\":\"local_async\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return String.valueOf(((Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return"))[0]).get("jid"));
    }

    private String login(String user, String password) throws Exception {
        HttpResponse<String> a = post(cluster.baseUrl() + "/login", null,
                "{\"username\":\"" + user + "\",\"password\":\"" + password + "\",\"eauth\":\"file\"}");
        assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
        Map<?, ?> answer = (Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(a.body())).get("return"))[0];
        lastLifetime = Math.round(((Number) answer.get("expire")).doubleValue() - ((Number) answer.get("start")).doubleValue());
        return a.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> post(String url, String token, String json) throws Exception {
        String target = url.endsWith("/login") || url.endsWith("/logout") ? url : url + "/";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(target)).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** One {@code GET /events} stream read line by line as the lines arrive, without a thread of its own. */
    static final class Lines implements Flow.Subscriber<String> {
        final Queue<String> lines = new ConcurrentLinkedQueue<>();
        volatile boolean ended;
        private volatile Flow.Subscription subscription;

        static Lines open(HttpClient http, String base, String token) {
            Lines lines = new Lines();
            http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/events?token=" + token)).GET().build(),
                    HttpResponse.BodyHandlers.fromLineSubscriber(lines)).whenComplete((r, e) -> lines.ended = true);
            return lines;
        }

        /** The tags of the events seen that start with {@code prefix}, in order. */
        List<String> tags(String prefix) {
            return lines.stream().filter(l -> l.startsWith("tag: " + prefix)).map(l -> l.substring("tag: ".length())).toList();
        }

        void close() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            lines.add(line);
        }

        @Override
        public void onError(Throwable e) {
            ended = true;
        }

        @Override
        public void onComplete() {
            ended = true;
        }
    }
}
