package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.api.ApiServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * salt-api's {@code rest_cherrypy:authorized_ips} over HTTP: one jsalt-api that lists the test's loopback
 * address, one that lists only another address, in front of one real master.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizedIpsTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ApiCluster cluster;
    private ApiServer listed;
    private ApiServer elsewhere;

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\n");
        Map<String, Object> eauth = Map.of("file", Map.of("^filename", users.toString(), "admin", List.of("test.*")));
        cluster = new ApiCluster(root.resolve("cluster")).start(eauth, List.of("local"));
        // "::ffff:127.0.0.1" is 127.0.0.1 written as an IPv4-mapped IPv6 address: compared as addresses, it matches
        listed = cluster.anotherApi(eauth, List.of("local"), c -> c.withAuthorizedIps(AuthorizedIps.of(List.of("10.1.2.3", "::ffff:127.0.0.1"))));
        elsewhere = cluster.anotherApi(eauth, List.of("local"), c -> c.withAuthorizedIps(AuthorizedIps.of(List.of("10.1.2.3", "::1"))));
    }

    @AfterAll
    void stop() {
        if (listed != null) {
            listed.close();
        }
        if (elsewhere != null) {
            elsewhere.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aListedClientIsServedAsWithoutTheList() throws Exception {
        HttpResponse<String> login = send(listed, HttpRequest.newBuilder().POST(HttpRequest.BodyPublishers.ofString(
                "{\"username\":\"admin\",\"password\":\"adminpw\",\"eauth\":\"file\"}")).header("Content-Type", "application/json"), "/login");
        assertThat(login.statusCode()).isEqualTo(200);
        assertThat(login.body()).contains("\"token\"");
        assertThat(send(listed, HttpRequest.newBuilder().GET(), "/").statusCode()).isEqualTo(200);
        assertThat(send(listed, HttpRequest.newBuilder().GET().header("Accept", "text/html"), "/app").statusCode()).isEqualTo(200);
    }

    @Test
    void aClientNotListedGets403BadIpOnEveryPathBeforeAnyLoginCheck() throws Exception {
        HttpResponse<String> login = send(elsewhere, HttpRequest.newBuilder().POST(HttpRequest.BodyPublishers.ofString(
                "{\"username\":\"admin\",\"password\":\"adminpw\",\"eauth\":\"file\"}")).header("Content-Type", "application/json"), "/login");
        assertThat(login.statusCode()).isEqualTo(403);
        assertThat(login.body()).contains("Bad IP").doesNotContain("token");
        for (String path : List.of("/", "/minions", "/events", "/app", "/stats", "/keys")) {
            HttpResponse<String> got = send(elsewhere, HttpRequest.newBuilder().GET(), path);
            assertThat(got.statusCode()).as(path).isEqualTo(403);
            assertThat(got.body()).as(path).contains("Bad IP");
        }
        assertThat(send(elsewhere, HttpRequest.newBuilder().POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json"), "/hook/x").statusCode()).isEqualTo(403);
        // a websocket upgrade too, before its token is looked at
        assertThatThrownBy(() -> http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + elsewhere.port() + "/ws/00ff"),
                new java.net.http.WebSocket.Listener() { }).get(20, java.util.concurrent.TimeUnit.SECONDS))
                .cause().isInstanceOf(java.net.http.WebSocketHandshakeException.class)
                .satisfies(e -> assertThat(((java.net.http.WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(403));
    }

    @Test
    void entriesAreAddressLiteralsComparedAsAddresses() throws Exception {
        AuthorizedIps v6 = AuthorizedIps.of(List.of("0:0:0:0:0:0:0:1", " 192.0.2.7 "));
        assertThat(v6.allows(InetAddress.getByName("::1"))).isTrue();
        assertThat(v6.allows(InetAddress.getByName("192.0.2.7"))).isTrue();
        assertThat(v6.allows(InetAddress.getByName("::ffff:192.0.2.7"))).isTrue();
        assertThat(v6.allows(InetAddress.getByName("192.0.2.8"))).isFalse();
        assertThat(v6.allows(null)).isFalse();
        assertThat(AuthorizedIps.ANY.allows(InetAddress.getByName("192.0.2.8"))).isTrue();
        assertThat(AuthorizedIps.of(List.of()).restricted()).isFalse();
        for (String bad : List.of("10.0.0.0/8", "localhost", "10.0.0.256", "10.0.0", "010.0.0.1", "::1/128", "fe80::1%eth0", "", "1:2:3")) {
            assertThatThrownBy(() -> AuthorizedIps.of(List.of(bad))).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not an IP address");
        }
    }

    private HttpResponse<String> send(ApiServer api, HttpRequest.Builder request, String path) throws Exception {
        return http.send(request.uri(URI.create("http://127.0.0.1:" + api.port() + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
