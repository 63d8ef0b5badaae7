package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.testing.PgCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jsalt-master processes on one PostgreSQL, with {@code event_return: pgjsonb}: a job published on m1
 * to m1's minion is looked up on m2, and m1's events (the job, the minion's return) appear on m2's bus.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoMastersOnPostgresEndToEndTest {
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");

    private PgCluster pg;
    private Cluster m1;
    private Cluster m2;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        pg = PgCluster.start();
        String db = pg.createDatabase();
        String[] shared = {"master_job_cache: postgres", "event_return: pgjsonb",
                "returner.pgjsonb.dsn: \"host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable\""};
        m1 = new Cluster(tmp.resolve("m1"));
        m2 = new Cluster(tmp.resolve("m2"));
        m1.startMaster(shared);
        m2.startMaster(shared);
        m1.startMinion("alpha");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(m1.key("-l", "pre").stdout()).contains("alpha"));
        assertThat(m1.key("-A", "-y").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m1.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
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

    @Test
    void aJobOnM1IsLookedUpOnM2AndItsEventsAppearOnM2sBus() throws Exception {
        try (EventTap onM2 = EventTap.connect(m2.masterSockDir(), Duration.ofSeconds(30))) {
            Cluster.Result async = m1.jsalt("--async", "*", "test.echo", "across");
            assertThat(async.exitCode()).as(async.toString()).isZero();
            Matcher m = JID.matcher(async.stdout());
            assertThat(m.find()).as(async.toString()).isTrue();
            String jid = m.group(1);

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result lookup = jsaltRun(m2, "jobs.lookup_jid", jid);
                assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
                assertThat(lookup.stdout()).contains("alpha:\n    across\n");
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(onM2.matching(e -> e.tag().equals("salt/job/" + jid + "/new"))).hasSize(1);
                assertThat(onM2.matching(e -> e.tag().equals("salt/job/" + jid + "/ret/alpha"))).singleElement()
                        .satisfies(s -> assertThat(s.event().data()).containsEntry("return", "across"));
            });
        }
        assertThat(Cluster.read(m2.masterLog())).contains("shared with every master");
    }

    private static Cluster.Result jsaltRun(Cluster on, String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 2];
        full[0] = "-c";
        full[1] = on.masterConfigDir().toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return on.run("io.jsalt.cli.run.RunCommand", full);
    }
}
