package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master killed with SIGKILL and started again with the same config: the minions notice on their own,
 * sign in again and answer jobs, and a return that finished while the master was down reaches it once it
 * is back. No operator action between the kill and the checks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MasterRestartEndToEndTest {
    /** The bound this test states: every minion answers the first job published after the restart within it. */
    private static final Duration ANSWER_AGAIN_WITHIN = Duration.ofSeconds(25);
    private static final Duration SIGN_IN = Duration.ofSeconds(90);
    private static final String[] MINION_SETTINGS = {"random_reauth_delay: 4", "return_retry_timer: 1", "return_retry_timer_max: 2"};

    private Cluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster();
        cluster.startMinionOverriding("alpha", MINION_SETTINGS);
        cluster.startMinionOverriding("beta", MINION_SETTINGS);
        // sign-ins of JVMs started on a loaded machine: long bounds on conditions, a fast machine is not slowed
        await().atMost(SIGN_IN).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("alpha", "beta"));
        assertThat(cluster.key("-A", "-y").exitCode()).isZero();
        await().atMost(SIGN_IN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    @Test
    @Order(1)
    void afterKillDashNineAndARestartTheFirstJobIsAnsweredByEveryMinion() throws Exception {
        int backBefore = count(cluster.minionLog("alpha"), "publish port is back") + count(cluster.minionLog("beta"), "publish port is back");
        cluster.killMaster();
        long restartedAt = System.nanoTime();
        cluster.restartMaster();

        // the minions see the publish port come back; they sign in again up to random_reauth_delay later.
        // Publish as soon as both are reconnected, so the job most likely arrives before they have the new
        // session key: they must keep it and run it after signing in again.
        await().atMost(Duration.ofSeconds(15)).until(() ->
                count(cluster.minionLog("alpha"), "publish port is back") + count(cluster.minionLog("beta"), "publish port is back")
                        >= backBefore + 2);
        Cluster.Result ping = cluster.jsalt("-t", "15", "*", "test.ping");

        Duration took = Duration.ofNanos(System.nanoTime() - restartedAt);
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        assertThat(ping.stdout()).contains("alpha:\n    True\n", "beta:\n    True\n");
        assertThat(took).as("answered again within the stated bound").isLessThan(ANSWER_AGAIN_WITHIN);
        assertThat(Cluster.read(cluster.minionLog("alpha"))).contains("lost the connection to the master's publish port");
    }

    @Test
    @Order(2)
    void aReturnFinishedWhileTheMasterIsDownIsDeliveredOnceWhenItIsBack() throws Exception {
        Path outbox = cluster.minionCachedir("alpha").resolve("returns");
        // the CLI does not wait (jsalt would wait for as long as find_job says the job runs); the job goes on
        // for 6 s, and the master is dead when it ends
        Cluster.Result published = cluster.jsalt("--async", "alpha", "test.sleep", "6");
        assertThat(published.stdout()).as(published.toString()).startsWith("Executed command with job ID: ");
        cluster.killMaster();

        await().atMost(Duration.ofSeconds(30)).until(() -> pending(outbox).size() == 1);
        String kept = pending(outbox).get(0).getFileName().toString();
        assertThat(kept).matches("[0-9]{20}\\.return");
        String jid = kept.substring(0, 20);

        try (EventTap bus = startMasterWithTap()) {
            // the minion signs in again to the restarted master before it delivers
            await().atMost(SIGN_IN).until(() ->
                    !bus.matching(e -> e.tag().equals("salt/job/" + jid + "/ret/alpha")).isEmpty());
            await().atMost(Duration.ofSeconds(10)).until(() -> pending(outbox).isEmpty());
            // the outbox retries every 1-2 s: had it kept the return after the master took it, a second would come
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() ->
                    bus.matching(EventTap.returnOf("alpha")).size() == 1);
            var ret = bus.matching(EventTap.returnOf("alpha")).get(0).event().data();
            assertThat(ret).containsEntry("fun", "test.sleep").containsEntry("return", true).containsEntry("jid", jid);
        }
        assertThat(Cluster.read(cluster.minionLog("alpha"))).contains("return of job " + jid + " kept in the outbox",
                "kept return of job " + jid + " delivered");
    }

    private EventTap startMasterWithTap() throws IOException, InterruptedException {
        // the tap connects while the master starts: its bus is up before its ports, so nothing is missed
        Thread restart = new Thread(() -> {
            try {
                cluster.restartMaster();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        restart.start();
        EventTap tap = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(30));
        restart.join(30_000);
        return tap;
    }

    private static List<Path> pending(Path outbox) throws IOException {
        if (!Files.isDirectory(outbox)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(outbox)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".return") && !p.getFileName().toString().startsWith(".")).toList();
        }
    }

    private static int count(Path log, String text) {
        return Cluster.read(log).split(java.util.regex.Pattern.quote(text), -1).length - 1;
    }
}
