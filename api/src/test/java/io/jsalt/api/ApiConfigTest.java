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
}
