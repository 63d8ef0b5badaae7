package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's REST calls against jsalt-api in front of a real master and a real minion (in this JVM, on
 * loopback): login, lowstate, the convenience URLs, refusals before anything is published, logout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestApiTest {
    private static final String MINION = "web-01";

    private ApiCluster cluster;
    private Path users;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startCluster(@TempDir Path root) throws Exception {
        users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of(
                "^filename", users.toString(),
                "admin", List.of(".*", "@runner", "@wheel"),
                "pinger", List.of("test.ping"))), List.of("local", "local_async", "runner", "wheel"), MINION);
        String token = login("admin", "adminpw");
        // the minion is up once a ping through the API comes back from it
        java.util.concurrent.atomic.AtomicReference<Answer> last = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                Answer a = post("/", token, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":2}]");
                last.set(a);
                return a.status == 200 && a.body.contains(MINION);
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the minion never answered a ping through the API; last answer: " + last.get(), e);
        }
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void loginAnswersSaltApisTokenShape() throws Exception {
        Answer a = post("/login", null, "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}");
        assertThat(a.status).isEqualTo(200);
        Map<?, ?> ret = (Map<?, ?>) ((Object[]) ((Map<?, ?>) a.json()).get("return"))[0];
        assertThat(ret.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("token", "expire", "start", "user", "eauth", "perms");
        assertThat((String) ret.get("token")).matches("[0-9a-f]{64}");
        assertThat(((Number) ret.get("expire")).doubleValue() - ((Number) ret.get("start")).doubleValue()).isEqualTo(43_200.0);
        assertThat(ret.get("user")).isEqualTo("pinger");
        assertThat(ret.get("eauth")).isEqualTo("file");
        assertThat((Object[]) ret.get("perms")).containsExactly("test.ping");
        assertThat(a.headers.firstValue("X-Auth-Token")).contains((String) ret.get("token"));
        // Python's json writes 1795573062.079, not 1.795573062079E9
        assertThat(a.body).containsPattern("\"expire\":\\d+\\.\\d+,");
        assertThat(a.headers.firstValue("Server")).isEmpty();
    }

    @Test
    void loginAlsoTakesAForm() throws Exception {
        Answer a = send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=pinger&password=pingpw&eauth=file")).build());
        assertThat(a.status).isEqualTo(200);
    }

    @Test
    void wrongPasswordUnknownBackendAndMissingFieldsAre401() throws Exception {
        assertThat(post("/login", null, "{\"username\":\"pinger\",\"password\":\"nope\",\"eauth\":\"file\"}").status).isEqualTo(401);
        assertThat(post("/login", null, "{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"pam\"}").status).isEqualTo(401);
        Answer a = post("/login", null, "{\"username\":\"pinger\"}");
        assertThat(a.status).isEqualTo(401);
        assertThat(a.body).contains("Could not authenticate using provided credentials");
    }

    @Test
    void localTestPingIsAnsweredByTheRealMinion() throws Exception {
        String token = login("pinger", "pingpw");
        Answer a = post("/", token, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]");
        assertThat(a.status).isEqualTo(200);
        assertThat(JSON_OF(a)).isEqualTo(Map.of("return", List.of(Map.of(MINION, true))));
    }

    @Test
    void fullReturnCarriesRetcodeAndJid() throws Exception {
        String token = login("pinger", "pingpw");
        Answer a = post("/", token, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\",\"full_return\":true}]");
        Map<?, ?> perMinion = (Map<?, ?>) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) a.json()).get("return"))[0]).get(MINION);
        assertThat(perMinion.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("ret", "retcode", "jid");
        assertThat(perMinion.get("ret")).isEqualTo(true);
    }

    @Test
    void withoutATokenOrWithABadOneEverythingIs401() throws Exception {
        String body = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]";
        assertThat(post("/", null, body).status).isEqualTo(401);
        Answer notHex = post("/", "not-a-token", body);
        assertThat(notHex.status).isEqualTo(401);
        assertThat(notHex.body).contains("No permission -- see authorization schemes");
        Answer notHexInChunk = post("/", null, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\",\"token\":\"zz\"}]");
        assertThat(notHexInChunk.status).isEqualTo(401);
        assertThat(notHexInChunk.body).contains("Invalid token");
        assertThat(post("/", "ab".repeat(20), body).status).isEqualTo(401);
        assertThat(get("/minions", null).status).isEqualTo(401);
        assertThat(get("/jobs", "ab".repeat(20)).status).isEqualTo(401);
    }

    @Test
    void aFunctionOutsideTheRightsIsRefusedAndNeverPublished() throws Exception {
        String pinger = login("pinger", "pingpw");
        String marker = "refused-" + System.nanoTime();
        Answer a = post("/", pinger, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"" + marker + "\"]}]");
        assertThat(a.status).isEqualTo(401);
        assertThat(a.body).contains("Authorization error occurred.");
        // the admin sees every job the master ever published: none carries the marker
        Answer jobs = get("/jobs", login("admin", "adminpw"));
        assertThat(jobs.status).isEqualTo(200);
        assertThat(jobs.body).doesNotContain(marker).contains("test.ping");
    }

    @Test
    void aTargetMatchingNoMinionIsRefused() throws Exception {
        String admin = login("admin", "adminpw");
        Answer a = post("/", admin, "[{\"client\":\"local\",\"tgt\":\"nobody-*\",\"fun\":\"test.ping\"}]");
        assertThat(a.status).isEqualTo(401);
    }

    @Test
    void runnerAndWheelNeedTheirGrants() throws Exception {
        String pinger = login("pinger", "pingpw");
        Answer runner = post("/", pinger, "[{\"client\":\"runner\",\"fun\":\"manage.present\"}]");
        assertThat(runner.status).isEqualTo(401);
        assertThat(runner.body).contains("Authentication failure of type &quot;token&quot; occurred for user pinger.");
        assertThat(get("/keys", pinger).status).isEqualTo(401);
        String admin = login("admin", "adminpw");
        Answer present = post("/", admin, "[{\"client\":\"runner\",\"fun\":\"manage.present\"}]");
        assertThat(present.status).isEqualTo(200);
        assertThat(JSON_OF(present)).isEqualTo(Map.of("return", List.of(List.of(MINION))));
    }

    @Test
    void localAsyncAnswersAJidWhoseReturnShowsUpInJobs() throws Exception {
        String admin = login("admin", "adminpw");
        Answer a = post("/minions", admin, "[{\"tgt\":\"" + MINION + "\",\"fun\":\"test.echo\",\"arg\":\"hello-async\"}]");
        assertThat(a.status).isEqualTo(202);
        Map<?, ?> job = (Map<?, ?>) ((Object[]) ((Map<?, ?>) a.json()).get("return"))[0];
        String jid = (String) job.get("jid");
        assertThat((Object[]) job.get("minions")).containsExactly(MINION);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Answer j = get("/jobs/" + jid, admin);
            return j.status == 200 && JSON_OF(j).get("return").equals(List.of(Map.of(MINION, "hello-async")));
        });
    }

    @Test
    void minionsAndKeysAnswerSaltApisShapes() throws Exception {
        String admin = login("admin", "adminpw");
        Answer minions = get("/minions/" + MINION, admin);
        assertThat(minions.status).isEqualTo(200);
        Map<Object, Object> grains = (Map<Object, Object>) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) minions.json()).get("return"))[0]).get(MINION);
        assertThat(grains).containsEntry("id", MINION);
        Answer keys = get("/keys", admin);
        assertThat(keys.status).isEqualTo(200);
        Map<?, ?> all = (Map<?, ?>) ((Map<?, ?>) keys.json()).get("return");
        assertThat((Object[]) all.get("minions")).contains(MINION);
    }

    @Test
    void logoutRevokesTheToken() throws Exception {
        String token = login("pinger", "pingpw");
        String ping = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]";
        assertThat(post("/", token, ping).status).isEqualTo(200);
        Answer out = post("/logout", token, "");
        assertThat(out.status).isEqualTo(200);
        assertThat(JSON_OF(out)).isEqualTo(Map.of("return", "Your token has been cleared"));
        assertThat(post("/", token, ping).status).isEqualTo(401);
        assertThat(post("/logout", token, "").status).isEqualTo(401);
    }

    @Test
    void aClientNotInNetapiEnableClientsIsRefusedAsSalt3006Does() throws Exception {
        try (io.jsalt.api.ApiServer onlyLocal = cluster.anotherApi(Map.of("file", Map.of("^filename", users.toString(),
                "admin", List.of(".*", "@runner"))), List.of("local"))) {
            String base = "http://127.0.0.1:" + onlyLocal.port();
            Answer login = send(HttpRequest.newBuilder(URI.create(base + "/login")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"admin\",\"password\":\"adminpw\",\"eauth\":\"file\"}")).build());
            String token = login.headers.firstValue("X-Auth-Token").orElseThrow();
            Answer runner = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"runner\",\"fun\":\"manage.present\"}]")).build());
            assertThat(runner.status).isEqualTo(400);
            assertThat(runner.body).contains("Client disabled: &#39;runner&#39;. Add to &#39;netapi_enable_clients&#39;");
            Answer local = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]")).build());
            assertThat(local.status).isEqualTo(200);
        }
    }

    @Test
    void tokensLiveOnTheMasterSoASecondApiHonoursThemAndALogoutEndsThemEverywhere() throws Exception {
        String token = login("admin", "adminpw");
        try (io.jsalt.api.ApiServer other = cluster.anotherApi(Map.of("file", Map.of("^filename", users.toString(),
                "admin", List.of(".*"))), List.of("local"))) {
            String base = "http://127.0.0.1:" + other.port();
            Answer ping = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]")).build());
            assertThat(ping.status).isEqualTo(200);
            assertThat(ping.body).contains(MINION);

            assertThat(post("/logout", token, "").status).isEqualTo(200);

            Answer after = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]")).build());
            assertThat(after.status).isEqualTo(401);
        }
    }

    @Test
    void anApiWhoseOwnCopyOfTheRightsIsWiderCannotGrantMoreThanTheMasterDoes() throws Exception {
        // this API's external_auth says pinger may run anything; the master's says test.ping only
        try (io.jsalt.api.ApiServer lax = cluster.anotherApi(Map.of("file", Map.of("^filename", users.toString(),
                "pinger", List.of(".*", "@runner"))), List.of("local", "runner"))) {
            String base = "http://127.0.0.1:" + lax.port();
            Answer login = send(HttpRequest.newBuilder(URI.create(base + "/login")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"pinger\",\"password\":\"pingpw\",\"eauth\":\"file\"}")).build());
            String token = login.headers.firstValue("X-Auth-Token").orElseThrow();
            Answer run = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"cmd.run\",\"arg\":[\"id\"]}]")).build());
            assertThat(run.status).isEqualTo(401);
            Answer runner = send(HttpRequest.newBuilder(URI.create(base + "/")).header("Content-Type", "application/json")
                    .header("X-Auth-Token", token)
                    .POST(HttpRequest.BodyPublishers.ofString("[{\"client\":\"runner\",\"fun\":\"jobs.list_jobs\"}]")).build());
            assertThat(runner.status).isEqualTo(401);
            assertThat(runner.body).contains("Authentication failure of type &quot;token&quot; occurred for user pinger.");
        }
    }

    @Test
    void tooManyFailedLoginsFromOneAddressAreStopped() throws Exception {
        try (io.jsalt.api.ApiServer other = cluster.anotherApi(Map.of("file", Map.of("^filename", users.toString(),
                "admin", List.of(".*"))), List.of("local"))) {
            String base = "http://127.0.0.1:" + other.port();
            for (int i = 0; i < Routes.MAX_LOGIN_FAILURES; i++) {
                assertThat(send(loginRequest(base, "wrong")).status).isEqualTo(401);
            }
            Answer stopped = send(loginRequest(base, "adminpw"));
            assertThat(stopped.status).as("even the right password, for now").isEqualTo(429);
            assertThat(stopped.headers.firstValue("X-Auth-Token")).isEmpty();
        }
    }

    @Test
    void passwordsTriedThroughPostKeysCountAgainstTheSameLimit() throws Exception {
        try (io.jsalt.api.ApiServer other = cluster.anotherApi(Map.of("file", Map.of("^filename", users.toString(),
                "admin", List.of(".*"))), List.of("local", "wheel"))) {
            String base = "http://127.0.0.1:" + other.port();
            for (int i = 0; i < Routes.MAX_LOGIN_FAILURES; i++) {
                assertThat(send(keysRequest(base, "wrong")).status).isEqualTo(401);
            }
            assertThat(send(keysRequest(base, "adminpw")).status).as("even the right password, for now").isEqualTo(429);
            assertThat(send(loginRequest(base, "adminpw")).status).as("and /login from the same address").isEqualTo(429);
        }
    }

    private static HttpRequest keysRequest(String base, String password) {
        return HttpRequest.newBuilder(URI.create(base + "/keys")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("mid=guessed&username=admin&eauth=file&password=" + password)).build();
    }

    private static HttpRequest loginRequest(String base, String password) {
        return HttpRequest.newBuilder(URI.create(base + "/login")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"admin\",\"password\":\"" + password
                        + "\",\"eauth\":\"file\"}")).build();
    }

    @Test
    void malformedBodiesAre400AndTheServerCarriesOn() throws Exception {
        String token = login("pinger", "pingpw");
        assertThat(post("/", token, "[{\"client\":").status).isEqualTo(400);
        assertThat(post("/", token, "{\"client\":\"local\"}").status).isEqualTo(400);
        assertThat(post("/", token, "[{\"client\":\"local\",\"tgt\":\"*\"}]").status).isEqualTo(400);
        assertThat(post("/", token, "[{\"client\":\"ssh\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]").status).isEqualTo(400);
        assertThat(get("/nothing/here", token).status).isEqualTo(404);
        String huge = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"" + "x".repeat(2 * 1_048_576) + "\"]}]";
        assertThat(post("/", token, huge).status).as("a body over 1 MiB").isEqualTo(413);
        HttpResponse<String> noLength = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/")).header("Content-Type", "application/json")
                        .header("X-Auth-Token", token).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofInputStream(
                                () -> new java.io.ByteArrayInputStream(huge.getBytes(java.nio.charset.StandardCharsets.UTF_8)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noLength.statusCode()).as("a body of no declared length found over 1 MiB while read").isEqualTo(413);
        assertThat(post("/", token, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]").status).isEqualTo(200);
    }

    // ---- helpers

    private String login(String user, String password) throws Exception {
        Answer a = post("/login", null, "{\"username\":\"" + user + "\",\"password\":\"" + password + "\",\"eauth\":\"file\"}");
        assertThat(a.status).as(a.body).isEqualTo(200);
        return a.headers.firstValue("X-Auth-Token").orElseThrow();
    }

    private Answer post(String path, String token, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return send(b.build());
    }

    private Answer get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path)).GET().timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return send(b.build());
    }

    private Answer send(HttpRequest request) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r.headers());
    }

    /** The JSON answer with arrays as lists, to compare with List/Map literals. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> JSON_OF(Answer a) {
        return (Map<String, Object>) lists(a.json());
    }

    private static Object lists(Object value) {
        if (value instanceof Object[] array) {
            return java.util.Arrays.stream(array).map(RestApiTest::lists).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), lists(v)));
            return copy;
        }
        return value;
    }

    private record Answer(int status, String body, java.net.http.HttpHeaders headers) {
        Object json() {
            return new JSON().fromJSON(body);
        }
    }
}
