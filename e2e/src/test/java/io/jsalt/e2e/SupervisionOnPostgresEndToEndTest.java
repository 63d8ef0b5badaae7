package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.testing.PgCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jsalt-master processes on one PostgreSQL job cache (no shared event bus): the fleet table of m1's minion is
 * in the database, so {@code jsalt-run supervisor.table} on m2 shows it, marked with the master it came through,
 * and follows its changes; m1 shows it as its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SupervisionOnPostgresEndToEndTest {
    private PgCluster pg;
    private Cluster m1;
    private Cluster m2;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        pg = PgCluster.start();
        String db = pg.createDatabase();
        String[] shared = {"master_job_cache: postgres", "auto_accept: True",
                "returner.pgjsonb.dsn: \"host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable\""};
        m1 = new Cluster(tmp.resolve("m1"));
        m2 = new Cluster(tmp.resolve("m2"));
        m1.startMaster(shared);
        m2.startMaster(shared);
        m1.startMinion("alpha", "supervisor_on_stop: stop", "supervisor:", "  app:", "    command: sleep 1011",
                "    startsecs: 0");
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {m1, m2, pg}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing the rest matters more
            }
        }
    }

    private static String table(Cluster on) throws IOException, InterruptedException {
        Cluster.Result r = on.run("io.jsalt.cli.run.RunCommand", "-c", on.masterConfigDir().toString(), "supervisor.table");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r.stdout();
    }

    @Test
    void theOtherMasterShowsTheMinionsProgramsFromTheDatabase() throws Exception {
        String via = "_master:" + m1.retPort + ")";
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() ->
                table(m2).lines().anyMatch(l -> l.matches("alpha +app +RUNNING +pid \\d+.*") && l.endsWith(via)));
        assertThat(table(m1).lines().filter(l -> l.startsWith("alpha "))).singleElement().asString()
                .matches("alpha +app +RUNNING +pid \\d+.*ago");

        Cluster.Result stop = m1.jsalt("alpha", "supervisor.stop", "app");
        assertThat(stop.stdout()).as(stop.toString()).contains("app: stopped");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() ->
                table(m2).lines().anyMatch(l -> l.matches("alpha +app +STOPPED .*") && l.endsWith(via)));
    }
}
