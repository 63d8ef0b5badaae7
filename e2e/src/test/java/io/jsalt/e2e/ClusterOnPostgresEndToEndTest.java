package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.testing.PgCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jsalt-master processes of one cluster ({@code cluster_id}) on one PostgreSQL, each with a minion of its
 * own (alpha signs in to m1, beta to m2): keys accepted with jsalt-key on m1 work on m2, jsalt-key lists the
 * same on both, grains reported to one master target on the other, and a key deleted on m2 makes m1 change
 * its session key too (its minion signs in again to get it). The tests run in order: they follow one cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterOnPostgresEndToEndTest {
    private PgCluster pg;
    private Cluster m1;
    private Cluster m2;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        pg = PgCluster.start();
        String db = pg.createDatabase();
        String[] shared = {"master_job_cache: postgres", "cluster_id: e2e",
                "returner.pgjsonb.dsn: \"host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable\""};
        m1 = new Cluster(tmp.resolve("m1"));
        m2 = new Cluster(tmp.resolve("m2"));
        m1.startMaster(shared);
        // Salt's multi-master asks for one master key on every master: the operator copies it before the first start
        Files.createDirectories(m2.masterPki(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String f : new String[] {"master.pem", "master.pub"}) {
            Files.copy(m1.masterPki().resolve(f), m2.masterPki().resolve(f), StandardCopyOption.COPY_ATTRIBUTES);
        }
        m2.startMaster(shared);
        m1.startMinion("alpha", "grains:", "  role: web");
        m2.startMinion("beta", "grains:", "  role: db");
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
    @Order(1)
    void keysAcceptedWithJsaltKeyOnM1WorkOnM2AndBothListTheSame() throws Exception {
        // beta asked m2; m1's jsalt-key sees it waiting
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                assertThat(m1.key("-l", "pre").stdout()).contains("alpha").contains("beta"));
        Cluster.Result accepted = m1.key("-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        assertThat(accepted.stdout()).contains("Key for minion beta accepted.");

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m2.jsalt("-t", "5", "beta", "test.echo", "via-m2");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains("via-m2");
        });
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m1.jsalt("-t", "5", "alpha", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
        Cluster.Result on1 = m1.key("-L");
        Cluster.Result on2 = m2.key("-L");
        assertThat(on1.exitCode()).as(on1.toString()).isZero();
        assertThat(on1.stdout()).isEqualTo(on2.stdout()).contains("Accepted Keys:\nalpha\nbeta\n");
    }

    @Test
    @Order(2)
    void grainsReportedToOneMasterTargetFromTheOther() throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result web = m2.jsalt("--preview-target", "-G", "role:web", "--out", "json");
            assertThat(web.exitCode()).as(web.toString()).isZero();
            assertThat(web.stdout().replaceAll("\\s", "")).isEqualTo("[\"alpha\"]");
            Cluster.Result db = m1.jsalt("--preview-target", "-G", "role:db", "--out", "json");
            assertThat(db.exitCode()).as(db.toString()).isZero();
            assertThat(db.stdout().replaceAll("\\s", "")).isEqualTo("[\"beta\"]");
        });
        Cluster.Result r = m2.jsalt("-t", "5", "-G", "role:db", "test.echo", "by-grain");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("beta:").contains("by-grain").doesNotContain("alpha");
    }

    @Test
    @Order(3)
    void aKeyDeletedOnM2ChangesTheSessionKeyOfM1WhoseMinionSignsInAgain() throws Exception {
        try (EventTap onM1 = EventTap.connect(m1.masterSockDir(), Duration.ofSeconds(30))) {
            Cluster.Result deleted = m2.key("-d", "beta", "-y");
            assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
            assertThat(deleted.stdout()).contains("Key for minion beta deleted.");

            await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> assertThat(Cluster.read(m1.masterLog()))
                    .contains("session key replaced (generation 2 of the cluster, made by")
                    .contains("a minion key was deleted or rejected"));
            assertThat(m1.key("-l", "acc").stdout()).doesNotContain("beta");
            // alpha, on m1, cannot read m1's publications until it signs in again and gets the new key
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result r = m1.jsalt("-t", "5", "alpha", "test.ping");
                assertThat(r.exitCode()).as(r.toString()).isZero();
            });
            assertThat(onM1.matching(e -> e.tag().equals("salt/auth") && "alpha".equals(e.data().get("id"))
                    && "accept".equals(e.data().get("act")))).isNotEmpty();
        }
    }

    @Test
    @Order(4)
    void aKeyDeletedWithJsaltKeyWhileItsOwnMasterIsDownStillReachesTheOtherMaster() throws Exception {
        m2.stopMaster();
        Cluster.Result deleted = m2.key("-d", "alpha", "-y"); // no master listens on m2: jsalt-key changes the table itself
        assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
        assertThat(deleted.stdout()).contains("Key for minion alpha deleted.");

        await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> assertThat(Cluster.read(m1.masterLog()))
                .contains("session key replaced (generation 3 of the cluster, made by")
                .contains("deleted or rejected with jsalt-key"));
        assertThat(m1.key("-L").stdout()).doesNotContain("alpha");
    }
}
