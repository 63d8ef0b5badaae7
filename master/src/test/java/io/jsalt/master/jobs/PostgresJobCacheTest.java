package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.pg.PostgresJobCache;
import io.jsalt.master.testing.PgCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job cache contract against a real PostgreSQL (a private cluster for this class, a database per test), and what only PostgreSQL does. */
class PostgresJobCacheTest extends JobCacheContract {
    static PgCluster cluster;

    @TempDir
    Path cachedir;
    String db;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Override
    JobCache newCache() {
        db = cluster.createDatabase();
        return PostgresJobCache.open(settings(db, cluster.password()), cachedir);
    }

    static PostgresSettings settings(String db, String password) {
        return new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER, password,
                Map.of("sslmode", "disable"), 16L * 1_048_576, false);
    }

    @Test
    void jobsAndReturnsAreRowsOfSaltsPgjsonbTablesReadableWithPlainSql() throws SQLException {
        cache.saveJob(new Job("20260101120000000001", "cmd.run", List.of("uptime"), "web*", "glob", "root",
                List.of("web1", "web2"), T0));
        cache.saveReturn(new JobReturn("20260101120000000001", "web1", "up 3 days", 0, true, T0.plusSeconds(1)));
        cache.saveReturn(new JobReturn("20260101120000000001", "web2", "no uptime", 127, false, T0.plusSeconds(2)));

        try (Connection c = cluster.connect(db); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT load->>'fun', load->>'tgt', load->'arg'->>0, load->>'tgt_type'"
                    + " FROM jids WHERE jid = '20260101120000000001'")) {
                assertThat(rs.next()).isTrue();
                assertThat(List.of(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)))
                        .containsExactly("cmd.run", "web*", "uptime", "glob");
            }
            // get_jid of Salt's pgjsonb returner: SELECT id, full_ret FROM salt_returns WHERE jid = %s
            try (ResultSet rs = s.executeQuery("SELECT id, fun, success, return #>> '{}', full_ret->>'retcode',"
                    + " full_ret->>'fun', full_ret->>'return' FROM salt_returns WHERE jid = '20260101120000000001' ORDER BY id")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(String.join("|", rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7)));
                }
                assertThat(rows).containsExactly("web1|cmd.run|true|up 3 days|0|cmd.run|up 3 days",
                        "web2|cmd.run|false|no uptime|127|cmd.run|no uptime");
            }
        }
    }

    @Test
    void valuesComeBackAsTheyWentInIncludingBytesAndTextJsonbWouldRefuse() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("pid", 4242L);
        value.put("stdout", "hello\nworld \"quoted\" \\ é ✓ \uD83D\uDE00");
        value.put("load", 0.25);
        value.put("ok", true);
        value.put("none", null);
        value.put("raw", new byte[] {0, (byte) 0xff});
        value.put("utf8 bytes", "text".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        value.put("nul", "a\0b");
        value.put("list", List.of("a", 1L, List.of(), Map.of()));
        String jid = "20260101120000123456";
        assertThat(cache.saveReturn(new JobReturn(jid, "web1", value, 3, false, T0))).isTrue();

        Map<String, Object> expected = new LinkedHashMap<>(value);
        expected.put("utf8 bytes", "text"); // as Salt's salt.utils.data.decode makes UTF-8 bytes before writing
        expected.put("nul", "a\0b".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(cache.returns(jid)).singleElement().satisfies(r -> {
            assertThat(r.ret()).usingRecursiveComparison().isEqualTo(expected);
            assertThat(r.retcode()).isEqualTo(3);
            assertThat(r.success()).isFalse();
            assertThat(r.received()).isEqualTo(T0);
        });
    }

    @Test
    void aWrongPasswordIsARefusalAtStartNotAnOutage() {
        assertThatThrownBy(() -> PostgresJobCache.open(settings(cluster.createDatabase(), "not-the-password"), cachedir.resolve("other")))
                .isInstanceOf(JobCacheException.class).hasMessageContaining("refused").hasMessageContaining("password")
                .hasMessageNotContaining("not-the-password");
        assertThatThrownBy(() -> PostgresJobCache.open(settings("no_such_db", cluster.password()), cachedir.resolve("other")))
                .isInstanceOf(JobCacheException.class).hasMessageContaining("no_such_db");
    }

    @Test
    void aDatabaseMadeWithSaltsOwnSchemaIsTakenOverWithItsRows() throws SQLException {
        cache.close();
        String saltDb = cluster.createDatabase();
        try (Connection c = cluster.connect(saltDb); Statement s = c.createStatement()) {
            // the schema in the docstring of salt/returners/pgjsonb.py (3006.8)
            s.execute("CREATE TABLE jids (jid varchar(255) NOT NULL primary key, load jsonb NOT NULL)");
            s.execute("CREATE INDEX idx_jids_jsonb on jids USING gin (load) WITH (fastupdate=on)");
            s.execute("CREATE TABLE salt_returns (fun varchar(50) NOT NULL, jid varchar(255) NOT NULL, return jsonb NOT NULL,"
                    + " id varchar(255) NOT NULL, success varchar(10) NOT NULL, full_ret jsonb NOT NULL,"
                    + " alter_time TIMESTAMP WITH TIME ZONE DEFAULT NOW())");
            s.execute("CREATE INDEX idx_salt_returns_jid ON salt_returns (jid)");
            s.execute("CREATE SEQUENCE seq_salt_events_id");
            s.execute("CREATE TABLE salt_events (id BIGINT NOT NULL UNIQUE DEFAULT nextval('seq_salt_events_id'),"
                    + " tag varchar(255) NOT NULL, data jsonb NOT NULL, alter_time TIMESTAMP WITH TIME ZONE DEFAULT NOW(),"
                    + " master_id varchar(255) NOT NULL)");
            s.execute("INSERT INTO jids VALUES ('20200101000000000001', '{\"fun\": \"test.ping\", \"tgt\": \"*\", \"arg\": []}')");
            s.execute("INSERT INTO salt_returns (fun, jid, return, id, success, full_ret) VALUES ('test.ping',"
                    + " '20200101000000000001', 'true', 'old-minion', 'True', '{\"return\": true}')");
        }

        cache = PostgresJobCache.open(settings(saltDb, cluster.password()), cachedir);

        assertThat(cache.job("20200101000000000001")).get().extracting(Job::fun).isEqualTo("test.ping");
        assertThat(cache.returns("20200101000000000001")).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("old-minion");
            assertThat(r.ret()).isEqualTo(true);
            assertThat(r.success()).isTrue();
        });
        assertThat(cache.saveReturn(ret("20200101000000000001", "old-minion", "again"))).isFalse();
        assertThat(cache.saveReturn(ret("20200101000000000001", "new-minion", true))).isTrue();
    }

    @Test
    void lookupAndListingUseIndexesNotScansOfTheWholeTable() throws SQLException {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement()) {
            s.execute("INSERT INTO jids (jid, load, started) SELECT to_char(g, 'FM00000000000000000000'),"
                    + " '{\"fun\": \"test.ping\"}', now() FROM generate_series(1, 20000) g");
            s.execute("INSERT INTO salt_returns (fun, jid, return, id, success, full_ret)"
                    + " SELECT 'test.ping', to_char(g / 10, 'FM00000000000000000000'), 'true', 'm' || (g % 10), 'true', '{}'"
                    + " FROM generate_series(10, 200009) g");
            s.execute("ANALYZE");
            assertThat(plan(s, "SELECT id, return FROM salt_returns WHERE jid = '00000000000000001234' ORDER BY seq"))
                    .contains("salt_returns_jid_id").doesNotContain("Seq Scan");
            assertThat(plan(s, "SELECT jid, load FROM jids WHERE jid >= '00000000000000001000' AND jid <= '00000000000000001100' ORDER BY jid"))
                    .contains("jids_pkey").doesNotContain("Seq Scan");
            assertThat(plan(s, "DELETE FROM jids WHERE started < now() - interval '1 day'"))
                    .contains("jids_started").doesNotContain("Seq Scan");
        }
    }

    @Test
    void pruneAlsoForgetsOldEvents() throws SQLException {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement()) {
            s.execute("INSERT INTO salt_events (tag, data, master_id, alter_time) VALUES"
                    + " ('old', '{}', 'm1', now() - interval '2 days'), ('new', '{}', 'm1', now())");
        }

        cache.prune(Instant.now().minusSeconds(86_400));

        try (Connection c = cluster.connect(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT string_agg(tag, ',') FROM salt_events")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("new");
        }
    }

    private static String plan(Statement s, String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
        }
        return out.toString();
    }
}
