package io.jsalt.e2e.interop;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real salt-api 3006.8 (beside a real salt-master) and jsalt-api (beside a jsalt-master), both with the same
 * {@code app} page, {@code static} folder and {@code root_prefix}: where the two answer alike ({@code HEAD} of
 * files, the prefix, {@code html_override} for a browser and for {@code Accept: *}{@code /*}), and the two
 * places jsalt-api answers the API where salt-api answers the app page instead (docs/api.md).
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebFilesVsSaltApiTest {
    private static final String APP = "<!doctype html><p>the operator's app</p>\n";
    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Processes processes;
    private String salt;
    private String jsalt;

    @BeforeAll
    void startBothSides(@TempDir Path root) throws Exception {
        processes = new Processes();
        RealSalt.env();
        Path app = Files.writeString(root.resolve("app.html"), APP);
        Files.writeString(root.resolve("users"), "nobody:right\n");
        Path www = Files.createDirectories(root.resolve("www"));
        Files.writeString(www.resolve("site.css"), "body { color: black }\n");
        // each API's port stays bound here until its API starts: the masters' own free ports can never take it
        java.net.ServerSocket saltHold = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        java.net.ServerSocket jsaltHold = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        int saltPort = saltHold.getLocalPort();
        int jsaltPort = jsaltHold.getLocalPort();

        SaltSide saltSide = new SaltSide(processes, root.resolve("s"));
        saltSide.startMaster(config(saltPort, app, www).toArray(String[]::new));
        JsaltSide jsaltSide = new JsaltSide(processes, root.resolve("j"));
        jsaltSide.startMaster(config(jsaltPort, app, www).toArray(String[]::new));
        saltHold.close();
        processes.spawn(RealSalt.tool("salt-api", List.of("-c", saltSide.masterConfigDir().toString())), root.resolve("s/console/salt-api.out"));
        jsaltHold.close();
        processes.spawn(new ProcessBuilder(JsaltSide.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", JsaltSide.CLASSPATH, "io.jsalt.cli.daemon.ApiDaemon", "-c", jsaltSide.masterConfigDir().toString()),
                root.resolve("j/console/jsalt-api.out"));
        salt = "http://127.0.0.1:" + saltPort;
        jsalt = "http://127.0.0.1:" + jsaltPort;
        await().atMost(Duration.ofSeconds(90)).until(() -> Processes.listening(saltPort) && Processes.listening(jsaltPort));
    }

    private static List<String> config(int port, Path app, Path www) {
        return List.of("rest_cherrypy:", "  port: " + port, "  host: 127.0.0.1", "  disable_ssl: True", "  app: " + app,
                "  static: " + www, "  root_prefix: /salt", "netapi_enable_clients: [local]",
                "external_auth:", "  file:", "    ^filename: " + app.resolveSibling("users"), "    nobody:", "      - test.ping");
    }

    @AfterAll
    void stopAll() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    void theApiIsUnderRootPrefixOnBothAndNothingOutsideIt() throws Exception {
        for (String base : List.of(salt, jsalt)) {
            HttpResponse<String> welcome = send(base, "GET", "/salt/", "application/json");
            assertThat(welcome.statusCode()).as(base).isEqualTo(200);
            assertThat(welcome.body()).as(base).contains("Welcome");
            assertThat(send(base, "GET", "/", "application/json").statusCode()).as(base).isEqualTo(404);
            assertThat(send(base, "GET", "/minions", "application/json").statusCode()).as(base).isEqualTo(404);
            HttpResponse<String> bare = send(base, "GET", "/salt", "application/json");
            assertThat(bare.statusCode()).as(base).isIn(301, 302); // salt-api 301, Jetty 302
            assertThat(bare.headers().firstValue("Location")).as(base).hasValueSatisfying(l -> assertThat(l).endsWith("/salt/"));
        }
    }

    @Test
    void headOfAStaticFileAndOfTheAppAnswersTheSameHeadersWithoutABody() throws Exception {
        for (String path : List.of("/salt/static/site.css", "/salt/app", "/salt/app/any/route")) {
            HttpResponse<String> s = send(salt, "HEAD", path, null);
            HttpResponse<String> j = send(jsalt, "HEAD", path, null);
            assertThat(j.statusCode()).as(path).isEqualTo(s.statusCode()).isEqualTo(200);
            assertThat(j.body()).as(path).isEmpty();
            assertThat(s.body()).as(path).isEmpty();
            assertThat(j.headers().firstValue("Content-Length")).as(path).isEqualTo(s.headers().firstValue("Content-Length")).isPresent();
            // the same media type (salt-api guesses text/css from the name; jsalt adds the charset)
            assertThat(mediaType(j)).as(path).isEqualTo(mediaType(s));
        }
        assertThat(send(jsalt, "HEAD", "/salt/static/none.css", null).statusCode())
                .isEqualTo(send(salt, "HEAD", "/salt/static/none.css", null).statusCode()).isEqualTo(404);
    }

    @Test
    void htmlOverrideAnswersTheAppToABrowserAndTheApiToAcceptAnythingOnBoth() throws Exception {
        for (String base : List.of(salt, jsalt)) {
            for (String path : List.of("/salt/", "/salt/minions")) {
                assertThat(send(base, "GET", path, BROWSER).body()).as(base + path).isEqualTo(APP);
                assertThat(send(base, "GET", path, "text/html").body()).as(base + path).isEqualTo(APP);
            }
            // curl's Accept: */* and an explicit JSON client get the API on both
            assertThat(send(base, "GET", "/salt/", "*/*").body()).as(base).contains("Welcome");
            assertThat(send(base, "GET", "/salt/minions", "*/*").statusCode()).as(base).isEqualTo(401);
            assertThat(send(base, "GET", "/salt/minions", "application/json").statusCode()).as(base).isEqualTo(401);
        }
    }

    @Test
    void whereSaltApiAnswersTheAppToAScriptJsaltApiAnswersTheApi() throws Exception {
        // no Accept at all (the JDK's, Go's and urllib's default), or */* after JSON: salt-api's cptools.accept
        // takes either for text/html and serves the app, even to a POST, which then never reaches the API
        for (String accept : new String[] {null, "application/json, */*"}) {
            assertThat(send(salt, "GET", "/salt/minions", accept).body()).as(accept).isEqualTo(APP);
            assertThat(send(jsalt, "GET", "/salt/minions", accept).statusCode()).as(accept).isEqualTo(401);
            HttpResponse<String> saltLogin = login(salt, accept);
            assertThat(saltLogin.statusCode()).as(accept).isEqualTo(200);
            assertThat(saltLogin.body()).as(accept).isEqualTo(APP);
            assertThat(login(jsalt, accept).statusCode()).as(accept).isEqualTo(401); // the login was tried: a wrong password
        }
    }

    private HttpResponse<String> login(String base, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/salt/login")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"nobody\",\"password\":\"wrong\",\"eauth\":\"file\"}"))
                .timeout(Duration.ofSeconds(30));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String base, String method, String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String mediaType(HttpResponse<String> r) {
        return r.headers().firstValue("Content-Type").orElse("").split(";")[0].strip();
    }
}
