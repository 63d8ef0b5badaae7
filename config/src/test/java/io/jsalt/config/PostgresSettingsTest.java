package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresSettingsTest {
    @TempDir
    Path dir;

    private PostgresSettings load(String yaml) throws IOException {
        Files.writeString(dir.resolve("master"), yaml);
        return MasterConfig.load(dir).postgres();
    }

    @Test
    void saltsPgjsonbKeysAreReadWithSaltsDefaultsForTheRest() throws IOException {
        PostgresSettings pg = load("""
                master_job_cache: postgres
                returner.pgjsonb.host: db1.example.org
                returner.pgjsonb.port: 6432
                returner.pgjsonb.pass: s3cret
                returner.pgjsonb.sslmode: verify-full
                returner.pgjsonb.sslrootcert: /etc/jsalt/pg-ca.pem
                """);

        assertThat(pg).isEqualTo(new PostgresSettings("db1.example.org", 6432, "salt", "salt", "s3cret",
                Map.of("sslmode", "verify-full", "sslrootcert", "/etc/jsalt/pg-ca.pem"), 256L * 1_048_576, false));
        assertThat(load("")).isEqualTo(PostgresSettings.defaults());
    }

    @Test
    void aLibpqConnectionStringGivesTheSameSettings() throws IOException {
        PostgresSettings pg = load("""
                returner.pgjsonb.dsn: 'host=db1 port = 6432 dbname=jobs user=jsalt password=''a b'' sslmode=require'
                """);

        assertThat(pg.host()).isEqualTo("db1");
        assertThat(pg.port()).isEqualTo(6432);
        assertThat(pg.db()).isEqualTo("jobs");
        assertThat(pg.user()).isEqualTo("jsalt");
        assertThat(pg.pass()).isEqualTo("a b");
        assertThat(pg.ssl()).containsExactly(Map.entry("sslmode", "require"));
    }

    @Test
    void clusterIdNamesTheClusterWithEitherFormAndIsCheckedForItsCharacters() throws IOException {
        assertThat(load("").clusterId()).isNull();
        assertThat(load("cluster_id: prod-eu.1\n").clusterId()).isEqualTo("prod-eu.1");
        assertThat(load("cluster_id: prod\nreturner.pgjsonb.dsn: 'host=db1 dbname=jobs'\n").clusterId()).isEqualTo("prod");
        for (String bad : new String[] {"'a b'", "'../x'", "'" + "c".repeat(65) + "'"}) {
            assertThatThrownBy(() -> load("cluster_id: " + bad + "\n")).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("cluster_id");
        }
    }

    @Test
    void quotedValuesKeepTheirSpacesAndEscapes() {
        assertThat(ConnectionString.parse("password='a b\\'c' user=x\\ y"))
                .containsExactly(Map.entry("password", "a b'c"), Map.entry("user", "x y"));
    }

    @Test
    void badConnectionStringsAreRefusedWithoutShowingThem() {
        assertThatThrownBy(() -> load("returner.pgjsonb.dsn: \"host=db1 password='s3cret\"\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("returner.pgjsonb.dsn")
                .hasMessageContaining("unterminated").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> load("returner.pgjsonb.dsn: \"host=db1 options=-cfoo=bar\"\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("options");
        assertThatThrownBy(() -> load("returner.pgjsonb.dsn: \"postgresql://salt:s3cret@db1/salt\"\n"))
                .isInstanceOf(ConfigException.class).hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> load("returner.pgjsonb.dsn: \"host=db1\"\nreturner.pgjsonb.host: db2\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("returner.pgjsonb.host");
    }

    @Test
    void anUnknownSslModeOrPortIsRefusedByName() {
        assertThatThrownBy(() -> load("returner.pgjsonb.sslmode: sometimes\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("returner.pgjsonb.sslmode")
                .hasMessageContaining("verify-full");
        assertThatThrownBy(() -> load("returner.pgjsonb.port: 70000\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("returner.pgjsonb.port");
        assertThatThrownBy(() -> load("returner.pgjsonb.dsn: \"port=abc\"\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("port=1..65535");
    }

    @Test
    void thePasswordNeverShowsInTheSettingsTextNorInAnError() {
        PostgresSettings pg = new PostgresSettings("db1", 5432, "salt", "salt", "s3cret", Map.of(), 1, false);
        assertThat(pg.toString()).doesNotContain("s3cret").contains("db1");
        assertThatThrownBy(() -> load("returner.pgjsonb.pass: 123456\n"))
                .isInstanceOf(ConfigException.class).hasMessageNotContaining("123456");
    }

    @Test
    void eventReturnTakesPgjsonbAloneOrInAList() throws IOException {
        assertThat(load("event_return: pgjsonb\n").eventReturn()).isTrue();
        assertThat(load("event_return: [pgjsonb]\n").eventReturn()).isTrue();
        assertThat(load("").eventReturn()).isFalse();
        assertThatThrownBy(() -> load("event_return: mysql\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("event_return").hasMessageContaining("pgjsonb");
    }

    @Test
    void postgresIsAKnownJobCache() throws IOException {
        Files.writeString(dir.resolve("master"), "master_job_cache: PostgreSQL\n");
        assertThatThrownBy(() -> MasterConfig.load(dir)).isInstanceOf(ConfigException.class).hasMessageContaining("postgres");
        Files.writeString(dir.resolve("master"), "master_job_cache: postgres\n");
        assertThat(MasterConfig.load(dir).masterJobCache()).isEqualTo("postgres");
    }
}
