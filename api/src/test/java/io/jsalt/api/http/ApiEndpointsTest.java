package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.stream.Stream;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** salt-api's {@code GET /events} (server-sent events) and {@code POST /run} against a real master and minion. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiEndpointsTest {
    private static final String MINION = "web-01";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ApiCluster cluster;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startCluster(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\nwatcher:watchpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of(
                "^filename", users.toString(),
                "admin", List.of(".*", "@runner", "@wheel"),
                "pinger", List.of("test.ping"),
                "watcher", List.of("test.ping", "@events"))), List.of("local", "local_async", "runner", "wheel"), MINION);
        String token = login("admin", "adminpw");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> a = post("/", token, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":2}]");
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
    void eventsWithoutALiveTokenAre401() throws Exception {
        assertThat(get("/events", null).statusCode()).isEqualTo(401);
        assertThat(get("/events?token=not-hex", null).statusCode()).isEqualTo(401);
        assertThat(get("/events?token=" + "ab".repeat(32), null).statusCode()).isEqualTo(401);
    }

    @Test
    void eventsStreamTheJobAndItsReturnAsSaltApiWritesThem() throws Exception {
        String token = login("pinger", "pingpw");
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + token)), lines);
        await().atMost(WAIT).until(() -> lines.contains("retry: 400"));
        assertThat(stream.get().headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));

        String jid = (String) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(post("/", token,
                "[{\"client\":\"local_async\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]").body())).get("return"))[0]).get("jid");

        String tag = "salt/job/" + jid + "/ret/" + MINION;
        await().atMost(WAIT).until(() -> lines.contains("tag: " + tag));
        List<String> all = List.copyOf(lines);
        String data = all.get(all.indexOf("tag: " + tag) + 1);
        assertThat(data).startsWith("data: ");
        Map<?, ?> event = (Map<?, ?>) new JSON().fromJSON(data.substring("data: ".length()));
        assertThat(event.get("tag")).isEqualTo(tag);
        assertThat(((Map<?, ?>) event.get("data")).get("return")).isEqualTo(true);
        assertThat(all).contains("tag: salt/job/" + jid + "/new");
        stream.get().body().close();
    }

    @Test
    void aUsersStreamShowsTheirOwnJobsAndNotAnotherUsersJobsNorOtherEvents() throws Exception {
        String pinger = login("pinger", "pingpw");
        String admin = login("admin", "adminpw");
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + pinger)), seen);
        await().atMost(WAIT).until(() -> seen.contains("retry: 400"));

        String adminJid = asyncPing(admin);
        assertThat(post("/hook/ci/build", admin, "{\"secret\":\"s3\"}").statusCode()).isEqualTo(200);
        await().atMost(WAIT).until(() -> returnsOf(admin, adminJid).containsKey(MINION));
        // published after the admin's job had returned and the hook was fired: once this is seen, those were filtered
        String ownJid = asyncPing(pinger);
        await().atMost(WAIT).until(() -> seen.contains("tag: salt/job/" + ownJid + "/ret/" + MINION));

        assertThat(seen).contains("tag: salt/job/" + ownJid + "/new");
        assertThat(seen.stream().filter(l -> l.contains(adminJid) || l.contains("salt/netapi/hook") || l.contains("s3")).toList()).isEmpty();
        stream.get().body().close();
    }

    @Test
    void theEventsRightAndEauthEventsAllShowTheWholeBusAsSaltApiDoes() throws Exception {
        String admin = login("admin", "adminpw");
        Queue<String> watcher = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> byRight = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + login("watcher", "watchpw"))), watcher);
        await().atMost(WAIT).until(() -> watcher.contains("retry: 400"));
        String first = asyncPing(admin);
        await().atMost(WAIT).until(() -> watcher.contains("tag: salt/job/" + first + "/ret/" + MINION));
        byRight.get().body().close();

        // eauth_events: all in the master's config (re-read when it changes): salt-api's behaviour for every token
        cluster.rewriteMasterConfig(Map.of("eauth_events", "all"));
        try {
            Queue<String> pinger = new ConcurrentLinkedQueue<>();
            CompletableFuture<HttpResponse<Stream<String>>> all = openEvents(
                    HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + login("pinger", "pingpw"))), pinger);
            await().atMost(WAIT).until(() -> pinger.contains("retry: 400"));
            String second = asyncPing(admin);
            await().atMost(WAIT).until(() -> pinger.contains("tag: salt/job/" + second + "/ret/" + MINION));
            all.get().body().close();
        } finally {
            cluster.rewriteMasterConfig(Map.of());
        }
    }

    @Test
    void theMastersLoginLimitIsAnsweredAs429EvenWhereTheApisOwnWouldLetALoginThrough() throws Exception {
        cluster.rewriteMasterConfig(Map.of("eauth_login_failures", 2));
        try {
            assertThat(post("/login", null, "{\"username\":\"watcher\",\"password\":\"no\",\"eauth\":\"file\"}").statusCode()).isEqualTo(401);
            assertThat(post("/login", null, "{\"username\":\"watcher\",\"password\":\"no\",\"eauth\":\"file\"}").statusCode()).isEqualTo(401);
            // jsalt-api allows 10 failures per address; the master stops this name after 2, even with the right password
            HttpResponse<String> right = post("/login", null, "{\"username\":\"watcher\",\"password\":\"watchpw\",\"eauth\":\"file\"}");
            assertThat(right.statusCode()).as(right.body()).isEqualTo(429);
        } finally {
            cluster.rewriteMasterConfig(Map.of());
        }
    }

    private String asyncPing(String token) throws Exception {
        HttpResponse<String> r = post("/", token, "[{\"client\":\"local_async\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return (String) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return"))[0]).get("jid");
    }

    private Map<?, ?> returnsOf(String token, String jid) throws Exception {
        HttpResponse<String> r = get("/jobs/" + jid, token);
        return r.statusCode() == 200 ? (Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return"))[0] : Map.of();
    }

    @Test
    void theSessionIdCookieAndTheHeaderAlsoCarryTheTokenAndALogoutEndsTheStream() throws Exception {
        String token = login("pinger", "pingpw");
        Queue<String> byCookie = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> cookie = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events")).header("Cookie", "session_id=" + token), byCookie);
        Queue<String> byHeader = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> header = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events")).header("X-Auth-Token", token), byHeader);
        await().atMost(WAIT).until(() -> byCookie.contains("retry: 400") && byHeader.contains("retry: 400"));

        assertThat(post("/logout", token, "").statusCode()).isEqualTo(200);

        // the stream checks its token again within seconds and ends
        await().atMost(WAIT).until(() -> cookie.get().body() != null && ended(byCookie) && ended(byHeader));
    }

    @Test
    void runTakesInlineCredentialsThatTheMasterChecks() throws Exception {
        HttpResponse<String> ok = post("/run", null, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\","
                + "\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}]");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).contains("\"" + MINION + "\":true");

        HttpResponse<String> denied = post("/run", null, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"cmd.run\","
                + "\"arg\":[\"id\"],\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}]");
        assertThat(denied.statusCode()).isEqualTo(401);
        HttpResponse<String> wrong = post("/run", null, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\","
                + "\"username\":\"pinger\",\"password\":\"nope\",\"eauth\":\"file\"}]");
        assertThat(wrong.statusCode()).isEqualTo(401);
        HttpResponse<String> none = post("/run", null, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\"}]");
        assertThat(none.statusCode()).isEqualTo(401);
        // a login token is not enough for /run: it takes the chunk's own credentials
        HttpResponse<String> header = post("/run", login("pinger", "pingpw"), "[{\"client\":\"local\",\"tgt\":\"" + MINION
                + "\",\"fun\":\"test.ping\"}]");
        assertThat(header.statusCode()).isEqualTo(401);
    }

    @Test
    void yamlBodiesAreReadAndYamlAnswersWrittenWhenAsked() throws Exception {
        String token = login("pinger", "pingpw");
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "application/x-yaml").header("Accept", "application/x-yaml").header("X-Auth-Token", token)
                .POST(HttpRequest.BodyPublishers.ofString("- client: local\n  tgt: " + MINION + "\n  fun: test.ping\n")).timeout(WAIT)
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/x-yaml"));
        assertThat(r.body()).isEqualTo("return:\n- " + MINION + ": true\n");
    }

    @Test
    void badYamlIs400AndAnAcceptNeitherJsonNorYamlIs406() throws Exception {
        String token = login("pinger", "pingpw");
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "text/yaml").header("X-Auth-Token", token)
                .POST(HttpRequest.BodyPublishers.ofString("- [unclosed\n")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        HttpResponse<String> tagged = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "text/yaml").header("X-Auth-Token", token)
                .POST(HttpRequest.BodyPublishers.ofString("- !!java.io.File /etc\n")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(tagged.statusCode()).isEqualTo(400);
        HttpResponse<String> xml = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/")).header("Accept", "text/xml")
                .GET().timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(xml.statusCode()).isEqualTo(406);
    }

    @Test
    void corsHeadersOnlyForTheConfiguredOriginsAndPreflightsAnsweredAsSaltApi() throws Exception {
        Map<String, Object> eauth = Map.of("file", Map.of("^filename", "/nonexistent", "pinger", List.of("test.ping")));
        try (io.jsalt.api.ApiServer strict = cluster.anotherApi(eauth, List.of("local"), List.of("https://console.example"));
                io.jsalt.api.ApiServer off = cluster.anotherApi(eauth, List.of("local"))) {
            String base = "http://127.0.0.1:" + strict.port();
            HttpResponse<String> allowed = http.send(HttpRequest.newBuilder(URI.create(base + "/")).header("Origin", "https://console.example")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).contains("https://console.example");
            assertThat(allowed.headers().firstValue("Access-Control-Allow-Credentials")).contains("true");
            assertThat(allowed.headers().firstValue("Access-Control-Expose-Headers")).contains("X-Auth-Token");

            HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create(base + "/")).header("Origin", "https://evil.example")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

            HttpResponse<String> preflight = http.send(HttpRequest.newBuilder(URI.create(base + "/"))
                    .header("Origin", "https://console.example").header("Access-Control-Request-Method", "POST")
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(preflight.statusCode()).isEqualTo(200);
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).contains("GET, POST");
            assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers")).contains("Content-Type, X-Auth-Token, X-Requested-With");

            HttpResponse<String> none = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + off.port() + "/"))
                    .header("Origin", "https://console.example").GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(none.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }
    }

    @Test
    void tlsFromSslCrtAndSslKeyServesTheApiAndNoClearText(@TempDir Path dir) throws Exception {
        SelfSigned pair = SelfSigned.write(dir);
        Map<String, Object> eauth = Map.of("file", Map.of("^filename", "/nonexistent"));
        try (io.jsalt.api.ApiServer tls = cluster.anotherApi(eauth, List.of("local"), c -> c.withTls(pair.crt(), pair.key()))) {
            HttpClient trusting = HttpClient.newBuilder().sslContext(pair.trustingIt()).connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> login = trusting.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + tls.port() + "/login"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}")).timeout(WAIT).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(login.statusCode()).as(login.body()).isEqualTo(200); // the master's users file, not this API's copy

            HttpResponse<String> welcome = trusting.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + tls.port() + "/"))
                    .GET().timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(welcome.body()).contains("Welcome");

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + tls.port() + "/")).GET().timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void aWebhookBecomesAnEventUnderSaltNetapiHookWithoutTheCredentials() throws Exception {
        String token = login("watcher", "watchpw"); // a hook is not a job of anyone's: only @events sees it
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = openEvents(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + token)), lines);
        await().atMost(WAIT).until(() -> lines.contains("retry: 400"));

        HttpResponse<String> hook = post("/hook/gitlab/push", token, "{\"ref\":\"main\"}");
        assertThat(hook.statusCode()).as(hook.body()).isEqualTo(200);
        assertThat(hook.body()).isEqualTo("{\"success\":true}");

        await().atMost(WAIT).until(() -> lines.contains("tag: salt/netapi/hook/gitlab/push"));
        List<String> all = List.copyOf(lines);
        Map<?, ?> event = (Map<?, ?>) new JSON().fromJSON(all.get(all.indexOf("tag: salt/netapi/hook/gitlab/push") + 1).substring(6));
        Map<?, ?> data = (Map<?, ?>) event.get("data");
        assertThat(data.get("body")).isEqualTo("{\"ref\":\"main\"}");
        assertThat(data.get("post")).isEqualTo(Map.of("ref", "main"));
        assertThat(((Map<?, ?>) data.get("headers")).keySet().stream().map(String::valueOf).toList()).contains("Content-Type")
                .doesNotContain("X-Auth-Token");
        assertThat(all.stream().filter(l -> l.startsWith("data: ") && l.contains(token)).toList()).isEmpty();
        stream.get().body().close();
    }

    @Test
    void aWebhookNeedsALoginUnlessWebhookDisableAuthAndItsPathStaysUnderTheHookPrefix() throws Exception {
        assertThat(post("/hook/anything", null, "{}").statusCode()).isEqualTo(401);
        String token = login("pinger", "pingpw");
        assertThat(post("/hook/a/../../salt/auth", token, "{}").statusCode()).isIn(400, 404);
        Map<String, Object> eauth = Map.of("file", Map.of("^filename", "/nonexistent"));
        try (io.jsalt.api.ApiServer open = cluster.anotherApi(eauth, List.of("local"), c -> c.withWebhookDisableAuth(true))) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + open.port() + "/hook/ci"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("status=ok")).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
    }

    @Test
    void postKeysGeneratesAnAcceptedKeyAndAnswersSaltApisTarball(@TempDir Path dir) throws Exception {
        HttpResponse<byte[]> r = form("/keys", "mid=newbie&username=admin&password=adminpw&eauth=file");
        assertThat(r.statusCode()).as(new String(r.body())).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/x-tar");
        assertThat(r.headers().firstValue("Content-Disposition")).contains("attachment; filename=\"saltkeys-newbie.tar\"");
        Path tar = Files.write(dir.resolve("keys.tar"), r.body());
        Process untar = new ProcessBuilder("tar", "-xf", tar.toString(), "-C", dir.toString()).redirectErrorStream(true).start();
        assertThat(untar.waitFor()).as(new String(untar.getInputStream().readAllBytes())).isZero();
        String pub = Files.readString(dir.resolve("minion.pub"));
        assertThat(pub).startsWith("-----BEGIN PUBLIC KEY-----");
        assertThat(Files.readString(dir.resolve("minion.pem"))).contains("PRIVATE KEY-----");
        assertThat(Files.readString(cluster.masterPki().resolve("minions/newbie"))).isEqualTo(pub);

        HttpResponse<byte[]> again = form("/keys", "mid=newbie&username=admin&password=adminpw&eauth=file");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(form("/keys", "mid=newbie&username=admin&password=adminpw&eauth=file&force=true").statusCode()).isEqualTo(200);
        assertThat(Files.readString(cluster.masterPki().resolve("minions/newbie"))).isNotEqualTo(pub);
    }

    @Test
    void postKeysNeedsWheelRightsAndAValidId() throws Exception {
        assertThat(form("/keys", "mid=sneaky&username=pinger&password=pingpw&eauth=file").statusCode()).isEqualTo(401);
        assertThat(form("/keys", "mid=sneaky").statusCode()).isEqualTo(401);
        assertThat(cluster.masterPki().resolve("minions/sneaky")).doesNotExist();
        assertThat(form("/keys", "mid=../escape&username=admin&password=adminpw&eauth=file").statusCode()).isEqualTo(400);
        assertThat(form("/keys", "username=admin&password=adminpw&eauth=file").statusCode()).isEqualTo(400);
    }

    private HttpResponse<byte[]> form(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void statsNeedALoginAndCountTheRequests() throws Exception {
        assertThat(get("/stats", null).statusCode()).isEqualTo(401);
        String token = login("pinger", "pingpw");
        HttpResponse<String> r = get("/stats", token);
        assertThat(r.statusCode()).isEqualTo(200);
        Map<?, ?> api = (Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("jsalt-api");
        assertThat(api.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("Start Time", "Uptime", "Requests",
                "Current Requests", "Event Streams", "Event Subscriptions", "Slow Streams Cut", "Server Errors");
        assertThat(((Number) api.get("Requests")).longValue()).isGreaterThanOrEqualTo(3);
        // this one (an open event stream is not a request in progress)
        await().atMost(WAIT).until(() -> {
            Map<?, ?> now = (Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(get("/stats", token).body())).get("jsalt-api");
            return ((Number) now.get("Current Requests")).longValue() == 1;
        });
    }

    /** The console's JavaScript modules, as Console serves them. */
    private static final List<String> CONSOLE_MODULES = List.of("app.js", "api.js", "args.js", "dom.js", "output.js", "highstate.js", "minions.js", "run.js",
            "jobs.js", "job.js", "events.js", "keys.js", "supervision.js");

    @Test
    void theConsoleIsServedFromTheJarUnderAppWithAStrictContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = get("/app", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("script-src 'self'", "frame-ancestors 'none'").doesNotContain("unsafe-inline"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(page.body()).contains("<script type=\"module\" src=\"/app/app.js\"></script>");
        for (String module : CONSOLE_MODULES) {
            HttpResponse<String> script = get("/app/" + module, null);
            assertThat(script.statusCode()).as(module).isEqualTo(200);
            assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
        }
        assertThat(get("/app/app.css", null).statusCode()).isEqualTo(200);
        assertThat(get("/app/index.html.bak", null).statusCode()).isEqualTo(404);
        assertThat(get("/app/%2e%2e/%2e%2e/etc/passwd", null).statusCode()).isIn(400, 404);
    }

    @Test
    void theConsoleNeverWritesHtmlFromDataAndNeverKeepsTheTokenInACookieOrAUrl() throws Exception {
        // ConsoleBrowserTest plants markup in a grain and a return and sees it stay text; this pins the rule for every module
        StringBuilder all = new StringBuilder();
        for (String module : CONSOLE_MODULES) {
            String script = get("/app/" + module, null).body();
            all.append(script);
            for (String sink : List.of("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                    "setAttribute(", "document.cookie", "localStorage", "EventSource", "?token=")) {
                assertThat(script).as(module + ": " + sink).doesNotContain(sink);
            }
        }
        assertThat(all).contains("textContent", "'X-Auth-Token'", "credentials: 'omit'", "sessionStorage");
        String page = get("/app", null).body();
        assertThat(page.replace("<script type=\"module\" src=\"/app/app.js\"></script>", "")).doesNotContain("<script", " style=")
                .doesNotContainPattern("\\son[a-z]+=");
    }

    /** A stream ends: the server closed it (the reader saw the end marker). */
    private static boolean ended(Queue<String> lines) {
        return lines.contains("<end>");
    }

    private CompletableFuture<HttpResponse<Stream<String>>> openEvents(HttpRequest.Builder request, Queue<String> lines) {
        CompletableFuture<HttpResponse<Stream<String>>> response = http.sendAsync(request.GET().build(), HttpResponse.BodyHandlers.ofLines());
        response.thenAcceptAsync(r -> {
            try (Stream<String> body = r.body()) {
                body.forEach(lines::add);
            } catch (RuntimeException e) {
                // closed by the test
            }
            lines.add("<end>");
        });
        return response;
    }

    private String login(String user, String password) throws Exception {
        HttpResponse<String> a = post("/login", null, "{\"username\":\"" + user + "\",\"password\":\"" + password + "\",\"eauth\":\"file\"}");
        assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
        return a.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> post(String path, String token, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(WAIT);
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path)).GET().timeout(WAIT);
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
