package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.api.ApiServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * jsalt-api over HTTP/2 with real h2 clients: the JDK's HttpClient (h2 by ALPN over TLS, h2c by HTTP/1.1's
 * Upgrade in clear) and Jetty's HTTP/2 client (h2c by prior knowledge). Each test checks the protocol the answer
 * really came in, then the answer itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Http2Test {
    private static final String MINION = "h2-01";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Map<String, Object> NO_OWN_USERS = Map.of("file", Map.of("^filename", "/nonexistent"));

    private ApiCluster cluster;
    private SelfSigned pair;
    private ApiServer tls;
    private HttpClient h2;

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "pinger:pingpw\nwatcher:watchpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of("^filename", users.toString(), "pinger", List.of("test.ping"),
                "watcher", List.of("@events"))),
                List.of("local", "local_async"), MINION);
        pair = SelfSigned.write(Files.createDirectories(root.resolve("tls")));
        tls = cluster.anotherApi(NO_OWN_USERS, List.of("local", "local_async"), c -> c.withTls(pair.crt(), pair.key()));
        h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(pair.trustingIt())
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    void stop() {
        if (tls != null) {
            tls.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private String tlsUrl(String path) {
        return "https://127.0.0.1:" + tls.port() + path;
    }

    @Test
    void tlsNegotiatesH2ByAlpnForLoginAndLowstate() throws Exception {
        HttpResponse<String> login = send(h2, post(tlsUrl("/login"), null, "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}"));
        assertThat(login.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        String token = login.headers().firstValue("X-Auth-Token").orElseThrow();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            HttpResponse<String> ping = send(h2, post(tlsUrl("/"), token,
                    "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":2}]"));
            assertThat(ping.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(ping.statusCode()).isEqualTo(200);
            assertThat(ping.body()).isEqualTo("{\"return\":[{\"" + MINION + "\":true}]}");
        });
    }

    @Test
    void tlsStillOffersHttp11ToAClientThatAsksForIt() throws Exception {
        HttpClient h1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(pair.trustingIt()).build();
        HttpResponse<String> welcome = send(h1, HttpRequest.newBuilder(URI.create(tlsUrl("/"))).timeout(WAIT).GET().build());
        assertThat(welcome.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(welcome.body()).contains("Welcome");
    }

    @Test
    void theConsolesFilesComeOverH2WithTheirHeaders() throws Exception {
        HttpResponse<String> page = send(h2, HttpRequest.newBuilder(URI.create(tlsUrl("/app"))).timeout(WAIT).GET().build());
        assertThat(page.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<script type=\"module\" src=\"/app/app.js\"");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(v -> assertThat(v).contains("default-src 'none'"));
        HttpResponse<String> script = send(h2, HttpRequest.newBuilder(URI.create(tlsUrl("/app/api.js"))).timeout(WAIT).GET().build());
        assertThat(script.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=utf-8");
    }

    @Test
    void anEventStreamStaysOpenOverH2AndDeliversAJobsReturn() throws Exception {
        String token = login(h2, tlsUrl("/login"));
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = openEvents(token, lines);
        assertThat(stream.get().version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(stream.get().headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));

        // the job goes over the same h2 connection as the open stream (one TCP connection, two h2 streams)
        HttpResponse<String> job = send(h2, post(tlsUrl("/"), token, "[{\"client\":\"local_async\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]"));
        assertThat(job.version()).isEqualTo(HttpClient.Version.HTTP_2);
        String jid = (String) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(job.body())).get("return"))[0]).get("jid");
        await().atMost(WAIT).until(() -> lines.contains("tag: salt/job/" + jid + "/ret/" + MINION));
        stream.get().body().close();
    }

    @Test
    void clearTextUpgradesToH2cWhenTheClientAsks() throws Exception {
        HttpClient clear = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(5)).build();
        // the JDK asks "Upgrade: h2c" on a connection's first request (one without a body)
        HttpResponse<String> welcome = send(clear, HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/")).timeout(WAIT).GET().build());
        assertThat(welcome.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(welcome.body()).contains("Welcome");
        HttpResponse<String> login = send(clear, post(cluster.baseUrl() + "/login", null,
                "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}"));
        assertThat(login.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(login.statusCode()).isEqualTo(200);
    }

    @Test
    void clearTextSpeaksH2cByPriorKnowledge() throws Exception {
        org.eclipse.jetty.client.HttpClient jetty = new org.eclipse.jetty.client.HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        jetty.start();
        try {
            ContentResponse login = jetty.newRequest(cluster.baseUrl() + "/login").method(HttpMethod.POST)
                    .headers(h -> h.put("Accept", "application/json"))
                    .body(new StringRequestContent("application/json", "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}"))
                    .timeout(30, TimeUnit.SECONDS).send();
            assertThat(login.getVersion()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(login.getStatus()).isEqualTo(200);
            String token = login.getHeaders().get("X-Auth-Token");
            ContentResponse ping = jetty.newRequest(cluster.baseUrl() + "/").method(HttpMethod.POST)
                    .headers(h -> h.put("Accept", "application/json").put("X-Auth-Token", token))
                    .body(new StringRequestContent("application/json", "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]"))
                    .timeout(30, TimeUnit.SECONDS).send();
            assertThat(ping.getVersion()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(ping.getContentAsString()).isEqualTo("{\"return\":[{\"" + MINION + "\":true}]}");
        } finally {
            jetty.stop();
        }
    }

    @Test
    void h2DoesNotOfferWebsocketsByExtendedConnectSoBrowsersOpenWsOverHttp11() throws Exception {
        HTTP2Client client = new HTTP2Client();
        client.start();
        try {
            CompletableFuture<Map<Integer, Integer>> settings = new CompletableFuture<>();
            Session session = client.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(cluster.baseUrl().replaceAll(".*:", ""))),
                    new Session.Listener() {
                        @Override
                        public void onSettings(Session s, SettingsFrame frame) {
                            settings.complete(frame.getSettings());
                        }
                    }).get(30, TimeUnit.SECONDS);
            Map<Integer, Integer> sent = settings.get(30, TimeUnit.SECONDS);
            assertThat(sent).containsKey(SettingsFrame.MAX_CONCURRENT_STREAMS); // the server's own SETTINGS frame
            assertThat(sent.getOrDefault(SettingsFrame.ENABLE_CONNECT_PROTOCOL, 0)).isZero();
            session.close(0, "done", org.eclipse.jetty.util.Callback.NOOP);
        } finally {
            client.stop();
        }
    }

    @Test
    void aBodyOverTheLimitIs413OverH2AndTheConnectionCarriesOn() throws Exception {
        String token = login(h2, tlsUrl("/login"));
        String huge = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"" + "x".repeat(2 * 1_048_576) + "\"]}]";
        HttpResponse<String> tooBig = send(h2, post(tlsUrl("/"), token, huge));
        assertThat(tooBig.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(tooBig.statusCode()).isEqualTo(413);
        HttpResponse<String> after = send(h2, post(tlsUrl("/"), token, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]"));
        assertThat(after.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(after.statusCode()).isEqualTo(200);
    }

    @Test
    void aBodyOverTheLimitIs413ByPriorKnowledge() throws Exception {
        org.eclipse.jetty.client.HttpClient jetty = new org.eclipse.jetty.client.HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        jetty.start();
        try {
            String huge = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"" + "x".repeat(2 * 1_048_576) + "\"]}]";
            ContentResponse r = jetty.newRequest(cluster.baseUrl() + "/").method(HttpMethod.POST)
                    .headers(h -> h.put("Accept", "application/json").put("X-Auth-Token", "ab"))
                    .body(new StringRequestContent("application/json", huge)).timeout(30, TimeUnit.SECONDS).send();
            assertThat(r.getVersion()).isEqualTo(HttpVersion.HTTP_2);
            assertThat(r.getStatus()).isEqualTo(413);
        } finally {
            jetty.stop();
        }
    }

    @Test
    void http2FalseServesHttp11OnlyOnBothConnectors() throws Exception {
        try (ApiServer tlsOff = cluster.anotherApi(NO_OWN_USERS, List.of("local"), c -> c.withTls(pair.crt(), pair.key()).withHttp2(false));
                ApiServer clearOff = cluster.anotherApi(NO_OWN_USERS, List.of("local"), c -> c.withHttp2(false))) {
            HttpResponse<String> overTls = send(h2, HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + tlsOff.port() + "/"))
                    .timeout(WAIT).GET().build());
            assertThat(overTls.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(overTls.body()).contains("Welcome");
            HttpResponse<String> clear = send(h2, HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + clearOff.port() + "/"))
                    .timeout(WAIT).GET().build());
            assertThat(clear.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
            assertThat(clear.body()).contains("Welcome");
        }
    }

    @Test
    void aWebhookOverH2KeepsSaltApisHeaderNamesThoughH2SendsThemInLowerCase() throws Exception {
        String token = login(h2, tlsUrl("/login"), "watcher", "watchpw");
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = openEvents(token, lines);
        HttpResponse<String> hook = send(h2, HttpRequest.newBuilder(URI.create(tlsUrl("/hook/ci/build"))).header("Content-Type", "application/json")
                .header("X-GitLab-Event", "Push Hook").header("X-Auth-Token", token).timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"ref\":\"main\"}")).build());
        assertThat(hook.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(hook.statusCode()).as(hook.body()).isEqualTo(200);

        await().atMost(WAIT).until(() -> lines.contains("tag: salt/netapi/hook/ci/build"));
        List<String> all = List.copyOf(lines);
        Map<?, ?> data = (Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(all.get(all.indexOf("tag: salt/netapi/hook/ci/build") + 1)
                .substring("data: ".length()))).get("data");
        assertThat(data.get("post")).isEqualTo(Map.of("ref", "main")); // read as JSON: its Content-Type was found
        // CherryPy's names: str.title() of what was sent, as salt-api puts them in the event
        @SuppressWarnings("unchecked")
        Map<String, Object> headers = (Map<String, Object>) data.get("headers");
        assertThat(headers).containsEntry("Content-Type", "application/json")
                .containsEntry("X-Gitlab-Event", "Push Hook").doesNotContainKeys("X-Auth-Token", "x-auth-token");
        stream.get().body().close();
    }

    @Test
    void headerNamesAreTitledAsPythonsStrTitle() {
        assertThat(ApiHandler.titled("x-auth-token")).isEqualTo("X-Auth-Token");
        assertThat(ApiHandler.titled("X-GitLab-Event")).isEqualTo("X-Gitlab-Event");
        assertThat(ApiHandler.titled("content-md5")).isEqualTo("Content-Md5");
        assertThat(ApiHandler.titled("x_hub_sig2x")).isEqualTo("X_Hub_Sig2X");
    }

    private CompletableFuture<HttpResponse<Stream<String>>> openEvents(String token, Queue<String> lines) {
        CompletableFuture<HttpResponse<Stream<String>>> stream = h2.sendAsync(
                HttpRequest.newBuilder(URI.create(tlsUrl("/events"))).header("X-Auth-Token", token).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        stream.thenAcceptAsync(r -> {
            try (Stream<String> body = r.body()) {
                body.forEach(lines::add);
            } catch (RuntimeException e) {
                // closed by the test
            }
        });
        await().atMost(WAIT).until(() -> lines.contains("retry: 400"));
        return stream;
    }

    private static String login(HttpClient client, String url) throws Exception {
        return login(client, url, "pinger", "pingpw");
    }

    private static String login(HttpClient client, String url, String user, String password) throws Exception {
        HttpResponse<String> login = send(client, post(url, null, "{\"username\":\"" + user + "\",\"password\":\"" + password
                + "\",\"eauth\":\"file\"}"));
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        return login.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private static HttpRequest post(String url, String token, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).timeout(WAIT);
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return b.build();
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
