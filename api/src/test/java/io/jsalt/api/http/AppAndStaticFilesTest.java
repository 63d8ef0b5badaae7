package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.api.ApiServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code app_path}, {@code app}, {@code static_path} and {@code static}, over HTTP: jsalt-api in
 * front of a real master (no minion is needed to serve files), one API with the built-in console moved and a
 * static folder, one with the operator's own app page.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppAndStaticFilesTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d};
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ApiCluster cluster;
    private ApiServer moved;
    private ApiServer ownApp;
    private Path www;
    private Path appPage;

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        www = Files.createDirectories(root.resolve("www"));
        Files.writeString(www.resolve("index.html"), "<p>static page</p>");
        Files.writeString(www.resolve("site.css"), "body { color: black }");
        Files.createDirectories(www.resolve("js"));
        Files.writeString(www.resolve("js/main.js"), "export const x = 1;");
        Files.writeString(www.resolve("data.json"), "{\"a\":1}");
        Files.writeString(www.resolve("notes.txt"), "plain");
        Files.write(www.resolve("logo.png"), PNG);
        Files.writeString(www.resolve("icon.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
        Files.writeString(www.resolve("dump.sql"), "select 1;");
        Files.writeString(root.resolve("secret.txt"), "the master's secret");
        Files.createSymbolicLink(www.resolve("escape.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(www.resolve("up"), root);
        appPage = Files.writeString(root.resolve("my-app.html"), "<!doctype html><p>my own app</p>");

        cluster = new ApiCluster(root.resolve("cluster")).start(Map.of(), List.of("local"));
        moved = cluster.anotherApi(Map.of(), List.of("local"), c -> c.withWebFiles(new WebFiles("/console", null, "/assets", www)));
        ownApp = cluster.anotherApi(Map.of(), List.of("local"), c -> c.withWebFiles(new WebFiles("/ui", appPage, "/static", null)));
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {moved, ownApp, cluster}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void theBuiltInConsoleIsServedAtAnotherAppPathAndNamesItsFilesThere() throws Exception {
        HttpResponse<String> page = get(moved, "/console");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'"));
        assertThat(page.body()).contains("<script type=\"module\" src=\"/console/app.js\"></script>",
                "<link rel=\"stylesheet\" href=\"/console/app.css\">").doesNotContain("/app/", "{{");
        assertThat(get(moved, "/console/").body()).isEqualTo(page.body());
        HttpResponse<String> script = get(moved, "/console/app.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
        assertThat(get(moved, "/console/app.css").statusCode()).isEqualTo(200);
        assertThat(get(moved, "/console/other.js").statusCode()).isEqualTo(404);
        // the default path is free again: the API answers it (nothing there)
        assertThat(get(moved, "/app").statusCode()).isEqualTo(404);
    }

    @Test
    void theStaticFolderIsServedUnderStaticPathWithEachFilesType() throws Exception {
        Map<String, String> types = Map.of("/assets/index.html", "text/html", "/assets/site.css", "text/css",
                "/assets/js/main.js", "text/javascript", "/assets/data.json", "application/json", "/assets/notes.txt", "text/plain",
                "/assets/icon.svg", "image/svg+xml");
        for (Map.Entry<String, String> e : types.entrySet()) {
            HttpResponse<String> r = get(moved, e.getKey());
            assertThat(r.statusCode()).as(e.getKey()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).as(e.getKey()).hasValueSatisfying(t -> assertThat(t).startsWith(e.getValue()));
            assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(r.body()).isEqualTo(Files.readString(www.resolve(e.getKey().substring("/assets/".length()))));
        }
        HttpResponse<byte[]> png = http.send(HttpRequest.newBuilder(URI.create(base(moved) + "/assets/logo.png")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(png.statusCode()).isEqualTo(200);
        assertThat(png.headers().firstValue("Content-Type")).contains("image/png");
        assertThat(png.body()).isEqualTo(PNG);
        // an SVG opened by itself runs no script in the API's origin
        assertThat(get(moved, "/assets/icon.svg").headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(csp -> assertThat(csp).contains("sandbox", "default-src 'none'"));
    }

    @Test
    void aMissingFileAFolderOrAnUnservedTypeIsA404() throws Exception {
        for (String path : List.of("/assets/none.css", "/assets/dump.sql", "/assets/js", "/assets", "/assets/")) {
            assertThat(get(moved, path).statusCode()).as(path).isEqualTo(404);
        }
        // without `static`, static_path is nothing of its own
        assertThat(get(ownApp, "/static/site.css").statusCode()).isEqualTo(404);
    }

    @Test
    void aSymlinkOutOfTheFolderIsRefused() throws Exception {
        for (String path : List.of("/assets/escape.txt", "/assets/up/secret.txt")) {
            HttpResponse<String> r = get(moved, path);
            assertThat(r.statusCode()).as(path).isEqualTo(403);
            assertThat(r.body()).doesNotContain("the master's secret");
        }
    }

    @Test
    void dotDotInTheRequestNeverLeavesTheFolder() throws Exception {
        // sent byte for byte (an HTTP client would tidy the path first): Jetty refuses or removes the dot segments
        for (String path : List.of("/assets/../secret.txt", "/assets/js/../../secret.txt", "/assets/%2e%2e/secret.txt",
                "/assets/..%2fsecret.txt", "/assets/js/%2e%2e/%2e%2e/secret.txt")) {
            String answer = rawGet(moved, path);
            assertThat(answer).as(path).matches("(?s)HTTP/1\\.1 (400|403|404) .*").doesNotContain("the master's secret");
        }
    }

    @Test
    void anAppFileIsServedAtAppPathAndEveryPathBelowItAsSaltApiDoes() throws Exception {
        for (String path : List.of("/ui", "/ui/", "/ui/minions/web-01", "/ui/app.js")) {
            HttpResponse<String> r = get(ownApp, path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
            assertThat(r.body()).isEqualTo("<!doctype html><p>my own app</p>");
        }
        // the operator's page may carry inline script: the console's strict policy is not put on it
        assertThat(get(ownApp, "/ui").headers().firstValue("Content-Security-Policy")).isEmpty();
        assertThat(get(ownApp, "/app").statusCode()).isEqualTo(404);
    }

    @Test
    void aBrowsersPageRequestOutsideAppPathGetsTheAppAsSaltApisHtmlOverride() throws Exception {
        String browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        for (String path : List.of("/", "/minions", "/jobs/20261128000000000000")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(ownApp) + path)).header("Accept", browser).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.body()).as(path).isEqualTo("<!doctype html><p>my own app</p>");
        }
        // a script asking for JSON (or anything) first still gets the API
        HttpResponse<String> json = http.send(HttpRequest.newBuilder(URI.create(base(ownApp) + "/"))
                .header("Accept", "application/json, text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(json.body()).contains("Welcome");
        // static_path stays static_path; and without `app` (the built-in console) there is no override, as in salt-api
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base(ownApp) + "/static/x.css")).header("Accept", browser).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base(moved) + "/")).header("Accept", browser).build(),
                HttpResponse.BodyHandlers.ofString()).body()).contains("Welcome");
    }

    @Test
    void headAnswersAFilesStatusAndHeadersAsGetDoesWithoutTheBody() throws Exception {
        for (String path : List.of("/assets/site.css", "/assets/logo.png", "/assets/icon.svg", "/console", "/console/app.js")) {
            HttpResponse<byte[]> get = http.send(HttpRequest.newBuilder(URI.create(base(moved) + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> head = head(moved, path, null);
            assertThat(head.statusCode()).as(path).isEqualTo(get.statusCode()).isEqualTo(200);
            assertThat(head.body()).as(path).isEmpty();
            assertThat(head.headers().firstValue("Content-Length")).as(path).hasValue(String.valueOf(get.body().length));
            for (String name : List.of("Content-Type", "X-Content-Type-Options", "Content-Security-Policy")) {
                assertThat(head.headers().allValues(name)).as(path + " " + name).isEqualTo(get.headers().allValues(name));
            }
        }
        for (String path : List.of("/assets/none.css", "/assets/dump.sql", "/console/other.js")) {
            assertThat(head(moved, path, null).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(head(moved, "/assets/escape.txt", null).statusCode()).isEqualTo(403);
        // the operator's app, at its path and for a browser's page request elsewhere
        String size = String.valueOf(Files.size(appPage));
        assertThat(head(ownApp, "/ui/minions", null).headers().firstValue("Content-Length")).hasValue(size);
        HttpResponse<byte[]> page = head(ownApp, "/minions", "text/html,*/*;q=0.8");
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Length")).hasValue(size);
        // and the API's own GET answers, as CherryPy answers HEAD for salt-api
        HttpResponse<byte[]> welcome = head(moved, "/", "application/json");
        assertThat(welcome.statusCode()).isEqualTo(200);
        assertThat(welcome.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(welcome.body()).isEmpty();
        assertThat(head(moved, "/minions", "application/json").statusCode()).isEqualTo(401);
    }

    private HttpResponse<byte[]> head(ApiServer api, String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base(api) + path)).method("HEAD", HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void theAppFileIsReadAtEachRequest() throws Exception {
        Path other = Files.writeString(appPage.resolveSibling("other-app.html"), "<p>first</p>");
        try (ApiServer api = cluster.anotherApi(Map.of(), List.of("local"), c -> c.withWebFiles(new WebFiles("/app", other, "/static", null)))) {
            assertThat(get(api, "/app").body()).isEqualTo("<p>first</p>");
            Files.writeString(other, "<p>second</p>");
            assertThat(get(api, "/app/x").body()).isEqualTo("<p>second</p>");
            Files.delete(other);
            assertThat(get(api, "/app").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theApiStillAnswersBesideTheFiles() throws Exception {
        HttpResponse<String> welcome = http.send(HttpRequest.newBuilder(URI.create(base(moved) + "/"))
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(welcome.statusCode()).isEqualTo(200);
        assertThat(welcome.body()).contains("Welcome");
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base(moved) + "/login")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"x\",\"password\":\"y\",\"eauth\":\"file\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    }

    private HttpResponse<String> get(ApiServer api, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base(api) + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A GET written on the socket as it is, so the path reaches the server untouched. */
    private static String rawGet(ApiServer api, String path) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", api.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String base(ApiServer api) {
        return "http://127.0.0.1:" + api.port();
    }
}
