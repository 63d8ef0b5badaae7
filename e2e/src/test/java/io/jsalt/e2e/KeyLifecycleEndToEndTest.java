package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rejecting and deleting keys, with real processes: what the minion can still do afterwards. */
class KeyLifecycleEndToEndTest {
    @TempDir
    Path tmp;

    private Cluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster();
        cluster.startMinion("keep");
        cluster.startMinion("drop");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("keep", "drop"));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aRejectedMinionIsNeverTargetedAndGivesUp() throws Exception {
        assertThat(cluster.key("-r", "drop", "-y").stdout()).contains("Key for minion drop rejected.");
        assertThat(cluster.key("-a", "keep", "-y").exitCode()).isZero();
        awaitAnswers("keep");

        Cluster.Result ping = cluster.jsalt("-t", "3", "*", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        assertThat(ping.stdout()).contains("keep:").doesNotContain("drop");
        assertThat(cluster.jsalt("-t", "2", "drop", "test.ping").exitCode()).isEqualTo(2);

        // Salt's minion exits when rejected (unless rejected_retry); so does jsalt's, with a clear line
        assertThat(cluster.minion("drop").waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(cluster.minion("drop").exitValue()).isEqualTo(77);
        assertThat(Cluster.read(cluster.minionLog("drop"))).contains("the master rejected this minion's key");
    }

    @Test
    void aDeletedMinionLosesTheSessionKeyAndComesBackAsPending() throws Exception {
        assertThat(cluster.key("-A", "-y").exitCode()).isZero();
        awaitAnswers("keep", "drop");

        Cluster.Result deleted = cluster.key("-d", "drop", "-y");
        assertThat(deleted.stdout()).as(deleted.toString()).contains("Key for minion drop deleted.");
        await().atMost(Duration.ofSeconds(10)).until(() -> Cluster.read(cluster.masterLog()).contains("session key rotated"));

        // the publication under the new key is unreadable to 'drop'; it signs in again and is pending
        Cluster.Result ping = cluster.jsalt("-t", "5", "*", "test.ping");
        assertThat(ping.stdout()).contains("keep:\n    True").doesNotContain("drop");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("drop"));
        assertThat(cluster.jsalt("-t", "2", "drop", "test.ping").exitCode()).isEqualTo(2);
        // the minion that kept its key signed in again and still answers
        awaitAnswers("keep");
    }

    private void awaitAnswers(String... ids) {
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "-L", String.join(",", ids), "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }
}
