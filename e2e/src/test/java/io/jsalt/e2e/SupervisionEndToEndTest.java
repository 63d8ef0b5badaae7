package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.event.EventFrame;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real minion process supervises programs from its config: {@code jsalt m1 supervisor.status} answers,
 * every state change reaches the master's bus as {@code jsalt/supervisor/m1/<process>/<STATE>}, the master's
 * fleet table ({@code jsalt-run supervisor.table}) shows it, and with {@code supervisor_on_stop: stop} the
 * programs stop with the minion, which
 * the table shows too, marked stale once the minion is gone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SupervisionEndToEndTest {
    private Cluster cluster;
    private EventTap bus;
    private final List<Long> pids = new ArrayList<>();

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10));
        cluster.startMinion("m1", "supervisor_on_stop: stop", "supervisor:", "  app:", "    command: sleep 1000", "    startsecs: 0",
                "  crash:", "    command: 'false'", "    startsecs: 1", "    startretries: 1", "    backoff: 0.1");
    }

    @AfterAll
    void stopCluster() {
        if (bus != null) {
            bus.close();
        }
        cluster.close();
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private static boolean tagged(EventFrame e, String tag) {
        return e.tag().equals(tag);
    }

    @Test
    void statusChangesReachTheMasterAndTheFleetTableAndProgramsStopWithTheMinion() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> !bus.matching(e -> tagged(e, "jsalt/supervisor/m1/app/RUNNING")).isEmpty());
        EventFrame running = bus.matching(e -> tagged(e, "jsalt/supervisor/m1/app/RUNNING")).get(0).event();
        long pid = ((Number) running.data().get("pid")).longValue();
        pids.add(pid);
        assertThat(pid).isPositive();
        assertThat(running.data()).containsEntry("id", "m1").containsEntry("state", "RUNNING").containsKeys("since", "restarts", "exitstatus");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
        await().atMost(Duration.ofSeconds(60)).until(() -> !bus.matching(e -> tagged(e, "jsalt/supervisor/m1/crash/FATAL")).isEmpty());

        Cluster.Result status = cluster.jsalt("m1", "supervisor.status", "--out", "json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.stdout()).contains("\"app\"", "\"RUNNING\"", "pid " + pid, "\"crash\"", "\"FATAL\"");

        Cluster.Result table = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                "supervisor.table");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.stdout()).containsPattern("m1 +app +RUNNING +pid " + pid).containsPattern("m1 +crash +FATAL");

        cluster.stopMinion("m1");
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        assertThat(cluster.minion("m1").waitFor(30, TimeUnit.SECONDS)).isTrue();

        // the minion told the master its program stopped before it left, and the table knows it left
        assertThat(bus.matching(e -> tagged(e, "jsalt/supervisor/m1/app/STOPPED"))).isNotEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Cluster.Result after = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                    "supervisor.table", "program=app");
            return after.exitCode() == 0 && after.stdout().lines()
                    .anyMatch(l -> l.matches("m1 +app +STOPPED .*\\(minion not connected: stale\\)"));
        });
    }
}
