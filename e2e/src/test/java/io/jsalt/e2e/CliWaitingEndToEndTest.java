package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
 * jsalt's waiting with real processes: a master and minions a, b, c, each its own JVM. gather_job_timeout
 * is 5 s, so that a loaded machine still answers find_job in time. A job longer than -t returns thanks to
 * saltutil.find_job; --async leaves a jid whose returns the job cache keeps; a batch over a stopped minion
 * finishes and reports it; --failhard stops a batch.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliWaitingEndToEndTest {
    private Cluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("gather_job_timeout: 5");
        for (String id : new String[] {"a", "b", "c"}) {
            cluster.startMinion(id);
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout().lines()).contains("a", "b", "c"));
        Cluster.Result accepted = cluster.key("-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        assertThat(cluster.key("-l", "acc").stdout().lines()).contains("a", "b", "c");
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    private Cluster.Result jsaltRun(String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 2];
        full[0] = "-c";
        full[1] = cluster.masterConfigDir().toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return cluster.run("io.jsalt.cli.run.RunCommand", full);
    }

    @Test
    @Order(1)
    void aJobLongerThanTheTimeoutStillReturnsThanksToFindJob() throws Exception {
        Cluster.Result r = cluster.jsalt("-t", "1", "-L", "a", "cmd.run", "sh -c 'sleep 8; echo slept'");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("a:\n    slept\n");
    }

    @Test
    @Order(2)
    void asyncPrintsTheJidAndTheJobCacheLaterHoldsTheReturns() throws Exception {
        Cluster.Result r = cluster.jsalt("--async", "-L", "a,b", "test.echo", "later");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        Matcher m = Pattern.compile("Executed command with job ID: ([0-9]{20})\n").matcher(r.stdout());
        assertThat(m.matches()).as(r.toString()).isTrue();
        String jid = m.group(1);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result lookup = jsaltRun("jobs.lookup_jid", jid);
            assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
            assertThat(lookup.stdout()).contains("a:\n    later\n", "b:\n    later\n");
        });
    }

    @Test
    @Order(3)
    void failhardStopsTheBatchAfterAFailingMinion() throws Exception {
        Cluster.Result r = cluster.jsalt("-b", "1", "--failhard", "-L", "a,b,c", "cmd.run", "sh -c 'exit 3'");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("a:").doesNotContain("b:", "c:");
        assertThat(r.stderr()).contains("Executing run on ['a']")
                .contains("Minion a returned with non-zero exit code. Batch run stopped due to failhard")
                .doesNotContain("Executing run on ['b']");
    }

    @Test
    @Order(4)
    void aBatchOverAStoppedMinionFinishesAndReportsIt() throws Exception {
        cluster.stopMinion("c");

        Cluster.Result r = cluster.jsalt("-t", "2", "-b", "1", "*", "test.ping");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
        assertThat(r.stdout()).contains("a:\n    True\n", "b:\n    True\n", "c:\n    Minion did not return. [Not connected]\n");
        assertThat(r.stderr()).contains("Executing run on ['a']", "Executing run on ['b']", "Executing run on ['c']");
    }
}
