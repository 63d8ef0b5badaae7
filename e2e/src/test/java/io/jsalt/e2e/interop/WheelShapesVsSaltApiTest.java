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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code client: wheel} and {@code wheel_async} against real salt-api + salt-master (3006.8) and against
 * jsalt-api + jsalt-master, each with one minion and the same file_roots and pillar_roots trees: the status, the
 * shape of every answer (keys and value types), the very values where they do not depend on the side (listings,
 * Salt's words for a write; each side's folder written as {@code <root>}), and the salt/wheel events a call fires.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WheelShapesVsSaltApiTest {
    private static final String MINION = "m1";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Processes processes;
    private Side salt;
    private Side jsalt;

    /** One API and the folder its master's roots live in. */
    private record Side(String base, Path root) {}

    @BeforeAll
    void startBothSides(@TempDir Path tmp) throws Exception {
        processes = new Processes();
        RealSalt.env();
        Path users = Files.writeString(tmp.resolve("users"), "thatch:s3cret\n");
        int saltPort = Processes.freePort();
        int jsaltPort = Processes.freePort();

        SaltSide s = new SaltSide(processes, tmp.resolve("s"));
        Path saltRoot = tree(tmp.resolve("s/srv"));
        s.startMaster(config(saltPort, users, saltRoot).toArray(String[]::new));
        s.startMinion(MINION, s.publishPort(), s.retPort());
        processes.spawn(RealSalt.tool("salt-api", List.of("-c", s.masterConfigDir().toString())), tmp.resolve("s/console/salt-api.out"));

        JsaltSide j = new JsaltSide(processes, tmp.resolve("j"));
        Path jsaltRoot = tree(tmp.resolve("j/srv"));
        j.startMaster(config(jsaltPort, users, jsaltRoot).toArray(String[]::new));
        j.startMinion(MINION, j.publishPort(), j.retPort());
        processes.spawn(new ProcessBuilder(JsaltSide.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", JsaltSide.CLASSPATH, "io.jsalt.cli.daemon.ApiDaemon", "-c", j.masterConfigDir().toString()),
                tmp.resolve("j/console/jsalt-api.out"));

        salt = new Side("http://127.0.0.1:" + saltPort, saltRoot);
        jsalt = new Side("http://127.0.0.1:" + jsaltPort, jsaltRoot);
        await().atMost(Duration.ofSeconds(90)).until(() -> Processes.listening(saltPort) && Processes.listening(jsaltPort));
        for (Side side : List.of(salt, jsalt)) {
            String token = login(side);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> String.valueOf(wheel(side, token, "{\"fun\":\"minions.connected\"}").get("return")).contains(MINION));
        }
    }

    /** The same files on both sides: text, a binary file, a nested folder, a second saltenv with a missing root. */
    private static Path tree(Path srv) throws IOException {
        Files.createDirectories(srv.resolve("salt/web"));
        Files.writeString(srv.resolve("salt/top.sls"), "base:\n  '*': [web]\n");
        Files.writeString(srv.resolve("salt/web/init.sls"), "nginx: pkg.installed\n");
        Files.write(srv.resolve("salt/logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0});
        Files.createDirectories(srv.resolve("dev"));
        Files.writeString(srv.resolve("dev/top.sls"), "dev: {}\n");
        Files.createDirectories(srv.resolve("pillar"));
        Files.writeString(srv.resolve("pillar/top.sls"), "base:\n  '*': [common]\n");
        Files.writeString(srv.resolve("outside.txt"), "not in any root\n");
        return srv;
    }

    private static List<String> config(int port, Path users, Path srv) {
        return List.of("auto_accept: True", "rest_cherrypy:", "  port: " + port, "  host: 127.0.0.1", "  disable_ssl: True",
                "netapi_enable_clients: [wheel, wheel_async]", "file_roots:", "  base: [" + srv.resolve("salt") + "]",
                "  dev: [" + srv.resolve("dev") + ", " + srv.resolve("dev2") + "]", "pillar_roots:", "  base: [" + srv.resolve("pillar") + "]",
                "external_auth:", "  file:", "    ^filename: " + users, "    thatch:", "      - '@wheel'");
    }

    @AfterAll
    void stopAll() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    void wheelFunctionsAnswerTheSameShapesAndTheSameListingsAndWords() throws Exception {
        String s = login(salt);
        String j = login(jsalt);
        for (String call : List.of(
                "{\"fun\":\"file_roots.list_env\"}",
                "{\"fun\":\"file_roots.list_env\",\"saltenv\":\"dev\"}",
                "{\"fun\":\"file_roots.list_env\",\"saltenv\":\"nope\"}",
                "{\"fun\":\"file_roots.list_roots\"}",
                "{\"fun\":\"file_roots.find\",\"path\":\"logo.png\"}",
                "{\"fun\":\"file_roots.read\",\"path\":\"web/init.sls\"}",
                "{\"fun\":\"file_roots.read\",\"path\":\"logo.png\"}",
                "{\"fun\":\"file_roots.read\",\"path\":\"../outside.txt\"}",
                "{\"fun\":\"file_roots.write\",\"path\":\"db/init.sls\",\"data\":\"db: {}\\n\"}",
                "{\"fun\":\"file_roots.write\",\"path\":\"../evil.sls\",\"data\":\"x\"}",
                "{\"fun\":\"file_roots.write\",\"path\":\"/tmp/evil.sls\",\"data\":\"x\"}",
                "{\"fun\":\"file_roots.write\",\"path\":\"a.sls\",\"data\":\"x\",\"saltenv\":\"nope\"}",
                "{\"fun\":\"file_roots.write\",\"path\":\"a.sls\",\"data\":\"x\",\"saltenv\":\"dev\",\"index\":5}",
                "{\"fun\":\"pillar_roots.list_env\"}",
                "{\"fun\":\"pillar_roots.list_roots\"}",
                "{\"fun\":\"pillar_roots.read\",\"path\":\"top.sls\"}",
                "{\"fun\":\"pillar_roots.write\",\"path\":\"common.sls\",\"data\":\"role: web\\n\"}",
                "{\"fun\":\"pillar_roots.write\",\"path\":\"../evil.sls\",\"data\":\"x\"}",
                "{\"fun\":\"minions.connected\"}",
                "{\"fun\":\"key.list_all\"}",
                "{\"fun\":\"key.list\",\"match\":\"acc\"}",
                "{\"fun\":\"key.name_match\",\"match\":\"m*\"}",
                "{\"fun\":\"key.name_match\",\"match\":\"zz*\"}",
                // salt-api passes arg and kwarg on, and Salt's wheel binds them when it has both
                "{\"fun\":\"key.name_match\",\"arg\":[\"m*\"],\"kwarg\":{}}",
                "{\"fun\":\"key.name_match\",\"arg\":[],\"kwarg\":{\"match\":\"m*\"}}",
                "{\"fun\":\"key.finger\",\"match\":\"m1\"}",
                "{\"fun\":\"key.finger\",\"match\":\"*\"}",
                "{\"fun\":\"key.finger_master\"}",
                "{\"fun\":\"key.print\",\"match\":\"m1\"}",
                "{\"fun\":\"key.master_key_str\"}",
                "{\"fun\":\"key.gen\"}",
                "{\"fun\":\"error.error\"}")) {
            Map<String, Object> fromSalt = wheel(salt, s, call);
            Map<String, Object> fromJsalt = wheel(jsalt, j, call);
            assertThat(fromJsalt.get("success")).as(call).isEqualTo(fromSalt.get("success")).isEqualTo(true);
            assertThat(shape(local(jsalt, fromJsalt.get("return")))).as(call).isEqualTo(shape(local(salt, fromSalt.get("return"))));
            if (call.contains("_roots.") || call.contains("minions.") || call.contains("key.list") || call.contains("name_match")) {
                // listings and Salt's words do not depend on the side: the same values, roots written as <root>
                assertThat(local(jsalt, fromJsalt.get("return"))).as(call).isEqualTo(local(salt, fromSalt.get("return")));
            }
        }
        assertThat(jsalt.root().resolve("salt/db/init.sls")).hasContent("db: {}\n");
        assertThat(jsalt.root().resolve("evil.sls")).doesNotExist();
        assertThat(Path.of("/tmp/evil.sls")).doesNotExist();
    }

    @Test
    void acceptRejectAndDeleteAnswerWhereTheMatchingKeysAreAfterwardsAsSaltsDo() throws Exception {
        String s = login(salt);
        String j = login(jsalt);
        for (String call : List.of(
                "{\"fun\":\"key.gen_accept\",\"id_\":\"kg1\"}",
                "{\"fun\":\"key.reject\",\"match\":\"kg1\"}",
                "{\"fun\":\"key.reject\",\"match\":\"kg1\",\"include_accepted\":true}",
                "{\"fun\":\"key.accept\",\"match\":\"kg1\"}",
                "{\"fun\":\"key.accept\",\"match\":\"kg*\",\"include_rejected\":true}",
                "{\"fun\":\"key.delete\",\"match\":\"kg1\"}",
                "{\"fun\":\"key.delete\",\"match\":\"kg1\"}")) {
            Map<String, Object> fromSalt = wheel(salt, s, call);
            Map<String, Object> fromJsalt = wheel(jsalt, j, call);
            assertThat(fromJsalt.get("success")).as(call).isEqualTo(fromSalt.get("success")).isEqualTo(true);
            if (call.contains("gen_accept")) {
                assertThat(shape(fromJsalt.get("return"))).as(call).isEqualTo(shape(fromSalt.get("return")));
            } else {
                assertThat(fromJsalt.get("return")).as(call).isEqualTo(fromSalt.get("return"));
            }
        }
    }

    @Test
    void failuresAreSuccessFalseWithAReasonOnBothSides() throws Exception {
        String s = login(salt);
        String j = login(jsalt);
        for (String call : List.of("{\"fun\":\"nosuch.fun\"}", "{\"fun\":\"file_roots.write\",\"path\":\"x.sls\"}",
                "{\"fun\":\"error.error\",\"name\":\"Exception\",\"message\":\"boom\"}",
                // a kwarg without an arg is not bound (Salt's wheel takes the chunk's own keys then): no match
                "{\"fun\":\"key.name_match\",\"kwarg\":{\"match\":\"m*\"}}")) {
            Map<String, Object> fromSalt = wheel(salt, s, call);
            Map<String, Object> fromJsalt = wheel(jsalt, j, call);
            assertThat(fromJsalt.get("success")).as(call).isEqualTo(fromSalt.get("success")).isEqualTo(false);
            assertThat((String) fromJsalt.get("return")).as(call).startsWith("Exception occurred in wheel ");
            assertThat((String) fromSalt.get("return")).as(call).startsWith("Exception occurred in wheel ");
        }
    }

    @Test
    void configValuesHoldsSaltsKeysWithSaltsTypes() throws Exception {
        Map<?, ?> fromSalt = (Map<?, ?>) wheel(salt, login(salt), "{\"fun\":\"config.values\"}").get("return");
        Map<?, ?> fromJsalt = (Map<?, ?>) wheel(jsalt, login(jsalt), "{\"fun\":\"config.values\"}").get("return");

        assertThat(List.<Object>copyOf(fromJsalt.keySet())).contains("interface", "ret_port", "pki_dir", "file_roots", "pillar_roots", "rest_cherrypy",
                "external_auth", "conf_file");
        for (Object key : fromJsalt.keySet()) {
            if (fromSalt.get(key) != null) {
                assertThat(kind(fromJsalt.get(key))).as(String.valueOf(key)).isEqualTo(kind(fromSalt.get(key)));
            }
        }
        assertThat(fromJsalt.keySet().stream().filter(k -> fromSalt.get(k) != null).count()).isGreaterThan(20);
        assertThat(local(jsalt, fromJsalt.get("file_roots"))).isEqualTo(local(salt, fromSalt.get("file_roots")));
    }

    @Test
    void aWheelCallFiresTheSameSaltWheelEventsWithTheSameKeys() throws Exception {
        for (String client : List.of("wheel", "wheel_async")) {
            List<List<Object>> fromSalt = wheelEvents(salt, client);
            List<List<Object>> fromJsalt = wheelEvents(jsalt, client);
            assertThat(fromJsalt).as(client).containsExactlyInAnyOrderElementsOf(fromSalt).hasSize(4);
        }
    }

    /**
     * The four salt/wheel events of one key.finger call seen on GET /events, each as [the part of the call it belongs
     * to (the jid answered or the other), new or ret, its data's keys].
     */
    private List<List<Object>> wheelEvents(Side side, String client) throws Exception {
        String token = login(side);
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = http.sendAsync(
                HttpRequest.newBuilder(URI.create(side.base() + "/events?token=" + token)).GET().build(), HttpResponse.BodyHandlers.ofLines());
        stream.thenAcceptAsync(r -> {
            try (Stream<String> body = r.body()) {
                body.forEach(lines::add);
            } catch (RuntimeException e) {
                // closed below
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains("retry: 400"));
        Map<?, ?> answer = (Map<?, ?>) ((List<?>) json(post(side.base() + "/", token,
                "[{\"client\":\"" + client + "\",\"fun\":\"key.finger\",\"match\":\"" + MINION + "\"}]")).get("return")).get(0);
        String jid = client.equals("wheel") ? (String) ((Map<?, ?>) answer.get("data")).get("jid") : (String) answer.get("jid");
        // Salt's second pair goes out through another connection to the bus: it may arrive after the master's return
        await().atMost(Duration.ofSeconds(30)).until(() -> lines.stream().filter(l -> l.startsWith("data: ") && l.contains("salt/wheel/"))
                .count() >= 4);
        List<List<Object>> seen = new ArrayList<>();
        for (String line : List.copyOf(lines)) {
            if (!line.startsWith("data: ")) {
                continue;
            }
            Map<?, ?> event = (Map<?, ?>) Json.parse(line.substring("data: ".length()));
            String tag = String.valueOf(event.get("tag"));
            if (tag.startsWith("salt/wheel/")) {
                Map<?, ?> data = (Map<?, ?>) event.get("data");
                seen.add(List.of(tag.contains(jid) ? "answered" : "other", tag.substring(tag.lastIndexOf('/') + 1),
                        new java.util.TreeSet<>(data.keySet().stream().map(String::valueOf).toList())));
            }
        }
        stream.get().body().close();
        return seen;
    }

    // ---- helpers

    /** The data of a wheel call's answer (status 200 asserted): fun, jid, tag, user, return, success. */
    private Map<String, Object> wheel(Side side, String token, String call) throws IOException, InterruptedException {
        String chunk = "{\"client\":\"wheel\"," + call.substring(1);
        HttpResponse<String> r = post(side.base() + "/", token, "[" + chunk + "]");
        assertThat(r.statusCode()).as(side.base() + " " + chunk + ": " + r.body()).isEqualTo(200);
        Map<?, ?> answer = (Map<?, ?>) ((List<?>) json(r).get("return")).get(0);
        assertThat(List.<Object>copyOf(new java.util.TreeSet<>(answer.keySet().stream().map(String::valueOf).toList())))
                .containsExactly("data", "tag");
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) answer.get("data");
        assertThat(new java.util.TreeSet<>(data.keySet())).as(chunk).containsExactly("_stamp", "fun", "jid", "return", "success", "tag", "user");
        return data;
    }

    /** A value with the side's own folder written as {@code <root>}, in keys and strings. */
    private static Object local(Side side, Object value) {
        String root = side.root().toString();
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k).replace(root, "<root>"), local(side, v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> local(side, v)).toList();
        }
        return value instanceof String str ? str.replace(root, "<root>") : value;
    }

    private String login(Side side) throws Exception {
        HttpResponse<String> r = post(side.base() + "/login", null, "{\"username\":\"thatch\",\"password\":\"s3cret\",\"eauth\":\"file\"}");
        assertThat(r.statusCode()).as(side.base() + ": " + r.body()).isEqualTo(200);
        return r.headers().firstValue("X-Auth-Token").orElseThrow();
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

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> r) {
        return (Map<String, Object>) Json.parse(r.body());
    }

    /** A value's type alone: a mapping or a list whatever it holds, else as {@link #shape}. */
    private static Object kind(Object value) {
        return value instanceof Map ? "map" : value instanceof List ? "list" : shape(value);
    }

    /** Keys and value types. */
    static Object shape(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), shape(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(WheelShapesVsSaltApiTest::shape).toList();
        }
        if (value instanceof Number n) {
            return n instanceof Double || n instanceof Float ? "float" : "int";
        }
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
