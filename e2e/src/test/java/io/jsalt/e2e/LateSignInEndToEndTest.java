package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.event.EventFrame;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A minion that signs in while a job it was expected to answer is in flight gets that job then, once, and the
 * waiting {@code jsalt} prints its answer instead of "did not return" (Salt loses the job: the publication went
 * out before the minion listened). Real master, minion and CLI processes.
 */
class LateSignInEndToEndTest {
    @TempDir
    Path tmp;

    private Cluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aMinionAcceptedJustBeforeAJobGetsTheJobWhenItSignsIn() throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster();
        Path ran = tmp.resolve("ran-late");
        try (EventTap bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10))) {
            // a pending minion asks again every 15 s: accepted right after one attempt, it signs in up to 15 s later
            cluster.startMinionOverriding("late", "acceptance_wait_time: 15");
            await().atMost(Duration.ofSeconds(30)).until(() -> !bus.matching(auth("late", "pend")).isEmpty());
            assertThat(cluster.key("-a", "late", "-y").exitCode()).isZero();

            Cluster.Result run = cluster.jsalt("late", "cmd.run", "echo once >> " + ran, "python_shell=True");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).contains("late:");
            String jid = jidOf(bus, "cmd.run");
            Instant published = bus.matching(e -> e.tag().equals("salt/job/" + jid + "/new")).get(0).at();
            Instant signedIn = bus.matching(auth("late", "accept")).get(0).at();
            assertThat(signedIn).as("the job went out before the minion signed in").isAfter(published);
            assertThat(Files.readAllLines(ran)).containsExactly("once");
            await().atMost(Duration.ofSeconds(10)).until(() -> Cluster.read(cluster.masterLog())
                    .contains("job " + jid + " (cmd.run) published again to late"));
        }
    }

    @Test
    void aMinionRestartingWhileAJobIsOutGetsItOnceWhenItIsBackUnderZmqFiltering() throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("zmq_filtering: True");
        Path ran = tmp.resolve("ran-back");
        try (EventTap bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10))) {
            cluster.startMinion("back", "zmq_filtering: True");
            cluster.startMinion("stays", "zmq_filtering: True");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(cluster.key("-l", "pre").stdout()).contains("back", "stays"));
            assertThat(cluster.key("-A", "-y").exitCode()).isZero();
            await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
                assertThat(r.exitCode()).as(r.toString()).isZero();
            });
            cluster.stopMinion("back");

            CompletableFuture<Cluster.Result> job = CompletableFuture.supplyAsync(() -> {
                try {
                    return cluster.jsalt("*", "cmd.run", "echo $(hostname) >> " + ran, "python_shell=True");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> !bus.matching(newJob("cmd.run")).isEmpty());
            String jid = jidOf(bus, "cmd.run");
            await().atMost(Duration.ofSeconds(30)).until(() -> bus.matching(EventTap.returnOf("stays")).stream()
                    .anyMatch(s -> s.event().tag().startsWith("salt/job/" + jid + "/")));
            cluster.startMinion("back", "zmq_filtering: True");

            Cluster.Result run = job.get(120, TimeUnit.SECONDS);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).contains("back:", "stays:");
            // each minion ran it once: the one that was there is not sent it again
            assertThat(Files.readAllLines(ran)).hasSize(2);
            assertThat(Cluster.read(cluster.masterLog())).contains("job " + jid + " (cmd.run) published again to back")
                    .doesNotContainPattern("published again to [^\\n]*\\bstays\\b"); // one line may name several minions
        }
    }

    private static Predicate<EventFrame> auth(String id, String act) {
        return e -> e.tag().equals("salt/auth") && id.equals(e.data().get("id")) && act.equals(e.data().get("act"));
    }

    private static Predicate<EventFrame> newJob(String fun) {
        return e -> e.tag().matches("salt/job/[0-9]{20}/new") && fun.equals(e.data().get("fun"));
    }

    private static String jidOf(EventTap bus, String fun) {
        List<EventTap.Seen> created = bus.matching(newJob(fun));
        assertThat(created).hasSize(1);
        return (String) created.get(0).event().data().get("jid");
    }
}
