package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
 * {@code jsalt-run supervisor.tail <minion> <program> -f}: a real minion's program writes a numbered line every
 * 0.2 s; following it from the master prints the last lines, then every new one, none twice and none missed; and
 * the following stops with an error, on its own, when the minion is killed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SupervisionTailEndToEndTest {
    private static final Pattern LINE = Pattern.compile("(?m)^line (\\d+)$");
    private Cluster cluster;
    private EventTap bus;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10));
        cluster.startMinion("m1", "supervisor_on_stop: stop", "supervisor:", "  talker:",
                "    command: sh -c 'i=0; while :; do i=$((i+1)); echo \"line $i\"; sleep 0.2; done'", "    startsecs: 0");
        await().atMost(Duration.ofSeconds(60)).until(() -> !bus.matching(e -> e.tag().equals("jsalt/supervisor/m1/talker/RUNNING")).isEmpty());
    }

    @AfterAll
    void stopCluster() {
        if (bus != null) {
            bus.close();
        }
        cluster.close();
    }

    private Cluster.Result tail(String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("-c", cluster.masterConfigDir().toString(),
                "supervisor.tail", "m1", "talker", "-f"));
        args.addAll(List.of(more));
        return cluster.run("io.jsalt.cli.run.RunCommand", args.toArray(String[]::new));
    }

    @Test
    @Order(1)
    void followsTheOutputFromTheMasterWithNoLineMissedOrTwice() throws Exception {
        Cluster.Result r = tail("lines=3", "seconds=6");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        Matcher m = LINE.matcher(r.stdout());
        List<Integer> numbers = new java.util.ArrayList<>();
        while (m.find()) {
            numbers.add(Integer.parseInt(m.group(1)));
        }
        // 3 lines from before, then about 5 a second for 6 s
        assertThat(numbers).as(r.stdout()).hasSizeGreaterThan(10);
        for (int i = 1; i < numbers.size(); i++) {
            assertThat(numbers.get(i)).as("line after %s", numbers.get(i - 1)).isEqualTo(numbers.get(i - 1) + 1);
        }
    }

    @Test
    @Order(2)
    void stopsWithAnErrorWhenTheMinionGoesAway() throws Exception {
        int before = bus.matching(e -> "supervisor.follow".equals(e.data().get("fun")) && e.tag().endsWith("/new")).size();
        CompletableFuture<Cluster.Result> following = CompletableFuture.supplyAsync(() -> {
            try {
                return tail();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the first step (the last lines) and a waiting one were published to the minion
        await().atMost(Duration.ofSeconds(60)).until(() -> bus.matching(e -> "supervisor.follow".equals(e.data().get("fun"))
                && e.tag().endsWith("/new")).size() >= before + 2);

        cluster.minion("m1").destroyForcibly();

        Cluster.Result r = following.get(110, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(r.exitCode()).as(r.toString()).isNotZero();
        assertThat(r.stderr()).containsPattern("m1 (is not connected|did not answer)");
        assertThat(r.stdout()).containsPattern("(?m)^line \\d+$");
    }
}
