package io.jsalt.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiConfigTest {
    @TempDir
    Path dir;

    private ApiConfig load(String... lines) throws Exception {
        Files.writeString(dir.resolve("master"), String.join("\n", lines) + "\n");
        return ApiConfig.load(dir);
    }

    @Test
    void readsSaltApisKeysWithSaltsDefaults() throws Exception {
        ApiConfig c = load("root_dir: " + dir, "rest_cherrypy:", "  port: 8123", "  disable_ssl: True",
                "netapi_enable_clients: [local]", "external_auth:", "  file:", "    ^filename: /x", "    thatch: [test.*]");
        assertThat(c.port()).isEqualTo(8123);
        assertThat(c.host()).isEqualTo("0.0.0.0");
        assertThat(c.debug()).isFalse();
        assertThat(c.tokenExpire()).isEqualTo(43_200);
        assertThat(c.enabledClients()).containsExactly("local");
        assertThat(c.externalAuth().authList("file", "thatch", java.util.List.of()).entries()).containsExactly("test.*");
        assertThat(c.pidfile()).isEqualTo(dir.resolve("var/run/jsalt/jsalt-api.pid"));
        assertThat(c.logFile()).isEqualTo(dir.resolve("var/log/jsalt/api"));
    }

    @Test
    void noClientIsEnabledUnlessNamed() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").enabledClients()).isEmpty();
    }

    @Test
    void refusesToStartWithoutAPortOrWithTlsAskedFor() {
        assertThatThrownBy(() -> load("interface: 127.0.0.1")).isInstanceOf(ConfigException.class).hasMessageContaining("rest_cherrypy");
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("disable_ssl");
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 70000", "  disable_ssl: True")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "external_auth:", "  file: [a]"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("external_auth");
    }

    @Test
    void tokenExpireIsRead() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "token_expire: 60").tokenExpire()).isEqualTo(60);
    }

    @Test
    void eventStreamBoundsHaveDefaultsAndRefuseWhatIsNotAPositiveCount() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").events())
                .isEqualTo(new io.jsalt.api.events.EventLimits(1000, 256));
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  max_event_streams: 5000",
                "  event_stream_buffer: 32").events()).isEqualTo(new io.jsalt.api.events.EventLimits(5000, 32));
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  max_event_streams: 0"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("max_event_streams");
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  event_stream_buffer: many"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("event_stream_buffer");
    }

    @Test
    void corsOriginIsOffByDefaultAndTakesOneOriginOrAList() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").corsOrigins()).isEmpty();
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  cors_origin: '*'").corsOrigins()).containsExactly("*");
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  cors_origin: [https://a.example, https://b.example]")
                .corsOrigins()).containsExactly("https://a.example", "https://b.example");
    }

    @Test
    void tlsNeedsReadablePemFiles() throws Exception {
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  ssl_crt: " + dir.resolve("none.crt"),
                "  ssl_key: " + dir.resolve("none.key"))).isInstanceOf(ConfigException.class).hasMessageContaining("ssl_crt");
        Files.writeString(dir.resolve("bad.key"), "not a key");
        io.jsalt.api.http.TestPem.selfSigned(dir);
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  ssl_crt: " + dir.resolve("api.crt"),
                "  ssl_key: " + dir.resolve("bad.key"))).isInstanceOf(ConfigException.class).hasMessageContaining("ssl_key");
        ApiConfig tls = load("rest_cherrypy:", "  port: 8000", "  ssl_crt: " + dir.resolve("api.crt"), "  ssl_key: " + dir.resolve("api.key"));
        assertThat(tls.disableSsl()).isFalse();
        assertThat(tls.sslCrt()).isEqualTo(dir.resolve("api.crt"));
    }

    @Test
    void appAndStaticKeysHaveSaltApisDefaults() throws Exception {
        ApiConfig c = load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True");
        assertThat(c.web()).isEqualTo(io.jsalt.api.http.WebFiles.DEFAULTS);
        assertThat(c.web().appPath()).isEqualTo("/app");
        assertThat(c.web().staticPath()).isEqualTo("/static");
        assertThat(c.web().app()).isNull();
        assertThat(c.web().staticDir()).isNull();
        assertThat(c.expireResponses()).isTrue();
    }

    @Test
    void readsAppAppPathStaticStaticPathAndExpireResponses() throws Exception {
        Path www = Files.createDirectories(dir.resolve("www"));
        Path page = Files.writeString(dir.resolve("page.html"), "<p>");
        ApiConfig c = load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  app_path: /console", "  app: " + page,
                "  static: " + www, "  static_path: /assets/v1", "  expire_responses: False");
        assertThat(c.web()).isEqualTo(new io.jsalt.api.http.WebFiles("/console", page, "/assets/v1", www));
        assertThat(c.expireResponses()).isFalse();
    }

    @Test
    void refusesABadAppPathOrStaticPathNamingTheKey() throws Exception {
        String[][] bad = {
            {"  app_path: app", "app_path"}, {"  app_path: /app/", "app_path"}, {"  app_path: /a/../b", "app_path"},
            {"  app_path: /", "app_path"}, {"  app_path: /login", "app_path"}, {"  app_path: /events/x", "app_path"},
            {"  app_path: 7", "app_path"}, {"  static_path: /app", "static_path"}, {"  static_path: /app/files", "static_path"},
            {"  static_path: /.hidden", "static_path"}, {"  app_path: /hook", "app_path"}, {"  static_path: /x y", "static_path"},
        };
        for (String[] line : bad) {
            assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", line[0])).as(line[0])
                    .isInstanceOf(ConfigException.class).hasMessageContaining(line[1] + ": expected");
        }
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  webhook_url: /ui/hook", "  app_path: /ui"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("app_path: expected").hasMessageContaining("webhook_url");
    }

    @Test
    void refusesAnAppOrStaticThatIsNotThereOrNotOfItsKind() throws Exception {
        Path page = Files.writeString(dir.resolve("page.html"), "<p>");
        Path www = Files.createDirectories(dir.resolve("www"));
        String[][] bad = {
            {"  static: " + dir.resolve("none"), "static"}, {"  static: " + page, "static"}, {"  static: www", "static"},
            {"  app: " + dir.resolve("none.html"), "app"}, {"  app: " + www, "app"}, {"  app: page.html", "app"},
        };
        for (String[] line : bad) {
            assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", line[0])).as(line[0])
                    .isInstanceOf(ConfigException.class).hasMessageContaining(line[1] + ": expected").hasMessageContaining("rest_cherrypy");
        }
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  expire_responses: sometimes"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("expire_responses");
    }

    @Test
    void authorizedIpsIsEveryClientByDefaultAndTakesOneAddressOrAList() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").authorizedIps().restricted()).isFalse();
        ApiConfig one = load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  authorized_ips: 192.0.2.1");
        assertThat(one.authorizedIps().allows(java.net.InetAddress.getByName("192.0.2.1"))).isTrue();
        assertThat(one.authorizedIps().allows(java.net.InetAddress.getByName("192.0.2.2"))).isFalse();
        ApiConfig list = load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  authorized_ips: [192.0.2.1, '::1']");
        assertThat(list.authorizedIps().allows(java.net.InetAddress.getByName("::1"))).isTrue();
    }

    @Test
    void refusesAnAuthorizedIpThatIsNotAnAddress() {
        for (String bad : new String[] {"  authorized_ips: [10.0.0.0/8]", "  authorized_ips: [api.example]", "  authorized_ips: [7]",
                "  authorized_ips: {a: b}", "  authorized_ips: 300.1.1.1"}) {
            assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", bad)).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("authorized_ips");
        }
    }

    @Test
    void http2IsOnByDefaultAndCanBeTurnedOff() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").http2()).isTrue();
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  http2: False").http2()).isFalse();
        assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  http2: maybe"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("http2");
    }

    @Test
    void rootPrefixIsTheRootByDefaultAndAUrlPathWithoutItsTrailingSlash() throws Exception {
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True").rootPrefix()).isEmpty();
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  root_prefix: /").rootPrefix()).isEmpty();
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  root_prefix: /salt/").rootPrefix()).isEqualTo("/salt");
        assertThat(load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  root_prefix: /ops/salt-api").rootPrefix())
                .isEqualTo("/ops/salt-api");
        for (String bad : new String[] {"salt", "/../x", "/a b", "/.hidden", "'/x?y'"}) {
            assertThatThrownBy(() -> load("rest_cherrypy:", "  port: 8000", "  disable_ssl: True", "  root_prefix: " + bad)).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("root_prefix");
        }
    }
}
