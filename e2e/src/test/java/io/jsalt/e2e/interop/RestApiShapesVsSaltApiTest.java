package io.jsalt.e2e.interop;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same salt-api requests against real salt-api + salt-master + salt-minion (3006.8) and against
 * jsalt-api + jsalt-master + jsalt-minion (all real processes), comparing the status codes and the SHAPES
 * of the answers (keys and value types; jids, tokens and times differ by nature).
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestApiShapesVsSaltApiTest {
    private static final String MINION = "m1";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Processes processes;
    private String saltApi;
    private String jsaltApi;
    /** jsalt-api's audit file under the jsalt side's root_dir (the default api_audit_logfile). */
    private Path jsaltAudit;

    @BeforeAll
    void startBothSides(@TempDir Path root) throws Exception {
        processes = new Processes();
        RealSalt.env();
        Path users = Files.writeString(root.resolve("users"), "thatch:s3cret\n");
        int saltPort = Processes.freePort();
        int jsaltPort = Processes.freePort();

        SaltSide salt = new SaltSide(processes, root.resolve("s"));
        salt.startMaster(apiConfig(saltPort, users).toArray(String[]::new));
        salt.startMinion(MINION, salt.publishPort(), salt.retPort());
        processes.spawn(RealSalt.tool("salt-api", List.of("-c", salt.masterConfigDir().toString())), root.resolve("s/console/salt-api.out"));

        JsaltSide jsalt = new JsaltSide(processes, root.resolve("j"));
        jsaltAudit = root.resolve("j/var/log/jsalt/api-audit");
        jsalt.startMaster(apiConfig(jsaltPort, users).toArray(String[]::new));
        jsalt.startMinion(MINION, jsalt.publishPort(), jsalt.retPort());
        processes.spawn(new ProcessBuilder(JsaltSide.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", JsaltSide.CLASSPATH, "io.jsalt.cli.daemon.ApiDaemon", "-c", jsalt.masterConfigDir().toString()),
                root.resolve("j/console/jsalt-api.out"));

        saltApi = "http://127.0.0.1:" + saltPort;
        jsaltApi = "http://127.0.0.1:" + jsaltPort;
        await().atMost(Duration.ofSeconds(90)).until(() -> Processes.listening(saltPort) && Processes.listening(jsaltPort));
        for (String base : List.of(saltApi, jsaltApi)) {
            String token = login(base);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> lowstate(base, token, "[{\"client\":\"local\",\"tgt\":\"" + MINION + "\",\"fun\":\"test.ping\",\"timeout\":3}]")
                            .body().contains("\"" + MINION + "\""));
        }
    }

    private static List<String> apiConfig(int port, Path users) {
        return List.of("auto_accept: True", "rest_cherrypy:", "  port: " + port, "  host: 127.0.0.1", "  disable_ssl: True",
                "netapi_enable_clients: [local, local_async, local_batch, runner, runner_async, wheel, wheel_async]",
                "external_auth:", "  file:", "    ^filename: " + users, "    thatch:", "      - test.*", "      - '@runner'",
                "      - '@wheel'");
    }

    @AfterAll
    void stopAll() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    void loginAnswersTheSameShape() throws Exception {
        Map<String, Object> salt = json(post(saltApi + "/login", null, "{\"username\":\"thatch\",\"password\":\"s3cret\",\"eauth\":\"file\"}"));
        Map<String, Object> jsalt = json(post(jsaltApi + "/login", null, "{\"username\":\"thatch\",\"password\":\"s3cret\",\"eauth\":\"file\"}"));
        assertThat(shape(jsalt)).isEqualTo(shape(salt));
        assertThat(perms(jsalt)).isEqualTo(perms(salt));
    }

    @Test
    void lowstateClientsAnswerTheSameShapes() throws Exception {
        String s = login(saltApi);
        String j = login(jsaltApi);
        for (String chunk : List.of(
                "{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}",
                "{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"hi\"],\"full_return\":true}",
                "{\"client\":\"local_async\",\"tgt\":\"*\",\"fun\":\"test.ping\"}",
                "{\"client\":\"local_batch\",\"tgt\":\"*\",\"fun\":\"test.echo\",\"arg\":[\"hi\"],\"batch\":1}",
                "{\"client\":\"runner\",\"fun\":\"manage.present\"}",
                "{\"client\":\"runner_async\",\"fun\":\"manage.present\"}",
                "{\"client\":\"wheel\",\"fun\":\"key.list_all\"}",
                "{\"client\":\"wheel_async\",\"fun\":\"key.list_all\"}")) {
            HttpResponse<String> salt = lowstate(saltApi, s, "[" + chunk + "]");
            HttpResponse<String> jsalt = lowstate(jsaltApi, j, "[" + chunk + "]");
            assertThat(jsalt.statusCode()).as(chunk).isEqualTo(salt.statusCode()).isEqualTo(200);
            assertThat(shape(json(jsalt))).as(chunk).isEqualTo(shape(json(salt)));
        }
    }

    @Test
    void refusalsHaveTheSameStatus() throws Exception {
        String s = login(saltApi);
        String j = login(jsaltApi);
        String denied = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"cmd.run\",\"arg\":[\"id\"]}]";
        assertThat(lowstate(jsaltApi, j, denied).statusCode()).isEqualTo(lowstate(saltApi, s, denied).statusCode()).isEqualTo(401);
        String ping = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]";
        assertThat(lowstate(jsaltApi, null, ping).statusCode()).isEqualTo(lowstate(saltApi, null, ping).statusCode()).isEqualTo(401);
        assertThat(lowstate(jsaltApi, "ab".repeat(20), ping).statusCode()).isEqualTo(lowstate(saltApi, "ab".repeat(20), ping).statusCode());
        assertThat(post(jsaltApi + "/login", null, "{\"username\":\"thatch\",\"password\":\"no\",\"eauth\":\"file\"}").statusCode())
                .isEqualTo(post(saltApi + "/login", null, "{\"username\":\"thatch\",\"password\":\"no\",\"eauth\":\"file\"}").statusCode())
                .isEqualTo(401);

        // jsalt-api's audit file has them, at the default log levels (salt-api keeps no such record)
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(jsaltAudit)
                && Files.readAllLines(jsaltAudit).stream().anyMatch(l -> l.contains("user=thatch eauth=file action=login")
                        && l.endsWith("outcome=refused")));
        assertThat(Files.readString(jsaltAudit)).contains("user=thatch eauth=file client=local fun=cmd.run tgt=*")
                .doesNotContain("s3cret");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(jsaltAudit))).isEqualTo("rw-------");
    }

    @Test
    void logoutAnswersTheSameAndRevokes() throws Exception {
        for (String base : List.of(saltApi, jsaltApi)) {
            String token = login(base);
            HttpResponse<String> out = post(base + "/logout", token, "");
            assertThat(out.statusCode()).as(base).isEqualTo(200);
            assertThat(json(out)).as(base).isEqualTo(Map.of("return", "Your token has been cleared"));
            assertThat(lowstate(base, token, "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]").statusCode()).as(base).isEqualTo(401);
        }
    }

    @Test
    void oneJobAnswersTheSameShapeOfReturns() throws Exception {
        Map<String, Object> salt = jobAfterAsyncPing(saltApi);
        Map<String, Object> jsalt = jobAfterAsyncPing(jsaltApi);
        assertThat(jsalt.keySet()).isEqualTo(salt.keySet());
        assertThat(jsalt.get("return")).isEqualTo(salt.get("return")).isEqualTo(List.of(Map.of(MINION, true)));
    }

    @Test
    void runWithInlineCredentialsAnswersTheSameAndRefusesTheSame() throws Exception {
        String ok = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\",\"username\":\"thatch\",\"password\":\"s3cret\","
                + "\"eauth\":\"file\"}]";
        HttpResponse<String> salt = post(saltApi + "/run", null, ok);
        HttpResponse<String> jsalt = post(jsaltApi + "/run", null, ok);
        assertThat(jsalt.statusCode()).isEqualTo(salt.statusCode()).isEqualTo(200);
        assertThat(json(jsalt)).isEqualTo(json(salt)).isEqualTo(Map.of("return", List.of(Map.of(MINION, true))));

        String wrong = ok.replace("s3cret", "nope");
        assertThat(post(jsaltApi + "/run", null, wrong).statusCode()).isEqualTo(post(saltApi + "/run", null, wrong).statusCode());
        String denied = ok.replace("test.ping", "cmd.run");
        assertThat(post(jsaltApi + "/run", null, denied).statusCode()).isEqualTo(post(saltApi + "/run", null, denied).statusCode());
    }

    @Test
    void yamlAnswersAreTheSameText() throws Exception {
        String chunk = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]";
        List<String> bodies = new ArrayList<>();
        for (String base : List.of(saltApi, jsaltApi)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/")).timeout(Duration.ofSeconds(60))
                    .header("Accept", "application/x-yaml").header("Content-Type", "application/json").header("X-Auth-Token", login(base))
                    .POST(HttpRequest.BodyPublishers.ofString(chunk)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(base).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).as(base).hasValueSatisfying(t -> assertThat(t).startsWith("application/x-yaml"));
            bodies.add(r.body());
        }
        assertThat(bodies.get(1)).isEqualTo(bodies.get(0)).isEqualTo("return:\n- " + MINION + ": true\n");
    }

    @Test
    void eventsStreamAJobsReturnInTheSameFormat() throws Exception {
        List<List<String>> streams = new ArrayList<>();
        for (String base : List.of(saltApi, jsaltApi)) {
            String token = login(base);
            java.util.Queue<String> lines = new java.util.concurrent.ConcurrentLinkedQueue<>();
            java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> stream = http.sendAsync(
                    HttpRequest.newBuilder(URI.create(base + "/events?token=" + token)).GET().build(), HttpResponse.BodyHandlers.ofLines());
            stream.thenAcceptAsync(r -> {
                try (java.util.stream.Stream<String> body = r.body()) {
                    body.forEach(lines::add);
                } catch (RuntimeException e) {
                    // closed below
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains("retry: 400"));
            assertThat(stream.get().headers().firstValue("Content-Type")).as(base)
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            Map<String, Object> started = json(lowstate(base, token, "[{\"client\":\"local_async\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]"));
            String jid = (String) ((Map<?, ?>) ((List<?>) started.get("return")).get(0)).get("jid");
            String tag = "tag: salt/job/" + jid + "/ret/" + MINION;
            await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains(tag));
            List<String> all = List.copyOf(lines);
            streams.add(List.of(all.get(all.indexOf(tag) + 1)));
            stream.get().body().close();
        }
        for (List<String> one : streams) {
            String data = one.get(0);
            assertThat(data).startsWith("data: ");
            Map<?, ?> event = (Map<?, ?>) Json.parse(data.substring("data: ".length()));
            assertThat(event.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("tag", "data");
            Map<?, ?> ret = (Map<?, ?>) event.get("data");
            assertThat(ret.get("return")).isEqualTo(true);
            assertThat(ret.get("id")).isEqualTo(MINION);
        }
    }

    // ---- helpers

    private Map<String, Object> jobAfterAsyncPing(String base) throws Exception {
        String token = login(base);
        Map<String, Object> started = json(lowstate(base, token, "[{\"client\":\"local_async\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]"));
        String jid = (String) ((Map<?, ?>) ((List<?>) started.get("return")).get(0)).get("jid");
        Map<String, Object>[] job = new Map[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            HttpResponse<String> r = get(base + "/jobs/" + jid, token);
            job[0] = r.statusCode() == 200 ? json(r) : null;
            return job[0] != null && job[0].get("return").equals(List.of(Map.of(MINION, true)));
        });
        return job[0];
    }

    private String login(String base) throws Exception {
        HttpResponse<String> r = post(base + "/login", null, "{\"username\":\"thatch\",\"password\":\"s3cret\",\"eauth\":\"file\"}");
        assertThat(r.statusCode()).as(base + ": " + r.body()).isEqualTo(200);
        return r.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> lowstate(String base, String token, String body) throws IOException, InterruptedException {
        return post(base + "/", token, body);
    }

    private HttpResponse<String> post(String url, String token, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url, String token) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).header("Accept", "application/json")
                .header("X-Auth-Token", token).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> r) {
        return (Map<String, Object>) Json.parse(r.body());
    }

    private static Object perms(Map<String, Object> login) {
        return ((Map<?, ?>) ((List<?>) login.get("return")).get(0)).get("perms");
    }

    /** Keys and value types, with jids (20 digits) as keys made one placeholder. */
    static Object shape(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k).matches("\\d{20}") ? "<jid>" : String.valueOf(k), shape(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(shape(v)));
            return out;
        }
        if (value instanceof Number n) {
            return n instanceof Double || n instanceof Float ? "float" : "int";
        }
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
