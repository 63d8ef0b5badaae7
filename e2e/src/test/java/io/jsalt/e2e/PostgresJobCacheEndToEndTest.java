package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.testing.PgCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jsalt-master process with {@code master_job_cache: postgres} on a private PostgreSQL, two minions: jobs
 * run, {@code jsalt-run jobs.lookup_jid} answers from the database, the rows are Salt's pgjsonb rows for
 * plain SQL, and a job published while the database is stopped runs and reaches the database once it is back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PostgresJobCacheEndToEndTest {
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");

    private PgCluster pg;
    private String db;
    private Cluster cluster;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        pg = PgCluster.start();
        db = pg.createDatabase();
        cluster = new Cluster(tmp);
        cluster.startMaster("master_job_cache: postgres", "returner.pgjsonb.host: 127.0.0.1",
                "returner.pgjsonb.port: " + pg.port(), "returner.pgjsonb.db: " + db,
                "returner.pgjsonb.user: " + PgCluster.SUPERUSER, "returner.pgjsonb.pass: '" + pg.password() + "'",
                "returner.pgjsonb.sslmode: disable");
        cluster.startMinion("alpha");
        cluster.startMinion("beta");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("alpha", "beta"));
        assertThat(cluster.key("-A", "-y").exitCode()).isZero();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    @Order(1)
    void testPingIsAnsweredAndItsReturnsAreRowsInPostgres() throws Exception {
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains("alpha:\n    True\n", "beta:\n    True\n");
        });

        assertThat(rows("SELECT count(*) FROM jids WHERE load->>'fun' = 'test.ping'")).singleElement()
                .satisfies(n -> assertThat(Integer.parseInt(n)).isPositive());
        // nothing went to the embedded store, in the cachedir where the spool waits
        Path cachedir = cluster.root.resolve("var/cache/jsalt/master");
        assertThat(Files.isDirectory(cachedir.resolve("pg-spool"))).isTrue();
        assertThat(Files.exists(cachedir.resolve("jobs.sqlite"))).isFalse();
    }

    @Test
    @Order(2)
    void lookupJidIsAnsweredFromPostgresAndTheRowsAreReadableWithPlainSql() throws Exception {
        String jid = asyncEcho("from-postgres");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result lookup = jsaltRun("jobs.lookup_jid", jid);
            assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
            assertThat(lookup.stdout()).contains("alpha:\n    from-postgres\n", "beta:\n    from-postgres\n");
        });
        assertThat(rows("SELECT id || '=' || (full_ret->>'return') || '/' || fun || '/' || success FROM salt_returns"
                + " WHERE jid = '" + jid + "' ORDER BY id"))
                .containsExactly("alpha=from-postgres/test.echo/true", "beta=from-postgres/test.echo/true");

        // the rows are the answer: one changed by hand is what jobs.lookup_jid then says
        try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(
                "UPDATE salt_returns SET return = '\"edited-in-sql\"' WHERE jid = ? AND id = 'alpha'")) {
            s.setString(1, jid);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        Cluster.Result lookup = jsaltRun("jobs.lookup_jid", jid);
        assertThat(lookup.stdout()).as(lookup.toString()).contains("alpha:\n    edited-in-sql\n");
    }

    @Test
    @Order(3)
    void aJobPublishedWhileTheDatabaseIsStoppedRunsAndReachesTheDatabaseWhenItIsBack() throws Exception {
        pg.stopServer();
        Cluster.Result r = cluster.jsalt("-t", "10", "*", "test.echo", "during-outage");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("alpha:\n    during-outage\n", "beta:\n    during-outage\n");
        assertThat(Cluster.read(cluster.masterLog())).contains("is unreachable").contains("queued on disk");

        pg.startServer();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(rows("SELECT id FROM salt_returns WHERE full_ret->>'return' = 'during-outage' ORDER BY id"))
                        .containsExactly("alpha", "beta"));
        assertThat(rows("SELECT count(*) FROM jids WHERE load->'arg'->>0 = 'during-outage'")).containsExactly("1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Cluster.read(cluster.masterLog())).contains("caught up"));
    }

    private String asyncEcho(String word) throws IOException, InterruptedException {
        Cluster.Result async = cluster.jsalt("--async", "*", "test.echo", word);
        assertThat(async.exitCode()).as(async.toString()).isZero();
        Matcher m = JID.matcher(async.stdout());
        assertThat(m.find()).as(async.toString()).isTrue();
        return m.group(1);
    }

    private Cluster.Result jsaltRun(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 2];
        full[0] = "-c";
        full[1] = cluster.masterConfigDir().toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return cluster.run("io.jsalt.cli.run.RunCommand", full);
    }

    private List<String> rows(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
