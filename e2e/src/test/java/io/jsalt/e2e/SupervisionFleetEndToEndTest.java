package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet of three real minion processes supervising a program each, seen through the master's table
 * ({@code jsalt-run supervisor.table}): after the program crashes on one host, after a minion is killed with
 * SIGKILL (its rows stale, its program still running; current again, same pid, once it is back), and after
 * a minion restart (the program untouched: same pid, adopted by the new minion); a program removed from a minion
 * leaves the table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SupervisionFleetEndToEndTest {
    private static final String[] PROGRAM = {"supervisor:", "  app:", "    command: sleep 1000", "    startsecs: 0"};
    private Cluster cluster;
    private final List<Long> pids = new ArrayList<>();

    @BeforeAll
    void startFleet(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True");
        for (String id : List.of("m1", "m2", "m3")) {
            cluster.startMinion(id, PROGRAM);
        }
    }

    @AfterAll
    void stopFleet() {
        cluster.close();
        // programs left running by a minion that stopped are no longer any minion's children
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private String table() throws IOException, InterruptedException {
        Cluster.Result table = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                "supervisor.table", "program=app");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        return table.stdout();
    }

    /** The pid the table shows RUNNING for {@code minion}'s app, once it is current (not stale), else -1. */
    private long currentPid(String minion) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("(?m)^" + minion + " +app +RUNNING +pid (\\d+),.*$").matcher(table());
        return m.find() && !m.group().contains("stale") ? Long.parseLong(m.group(1)) : -1;
    }

    private long awaitCurrentPid(String minion, long other) {
        long[] pid = {-1};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
            pid[0] = currentPid(minion);
            return pid[0] > 0 && pid[0] != other;
        });
        pids.add(pid[0]);
        return pid[0];
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void theFleetTableFollowsCrashesMinionKillsAndMinionRestarts() throws Exception {
        long m1 = awaitCurrentPid("m1", -1);
        long m2 = awaitCurrentPid("m2", -1);
        long m3 = awaitCurrentPid("m3", -1);

        // a crash on one host: restarted there, the table shows the new pid at once; the others are untouched
        ProcessHandle.of(m2).orElseThrow().destroyForcibly();
        long m2Again = awaitCurrentPid("m2", m2);
        assertThat(table()).containsPattern("(?m)^m1 +app +RUNNING +pid " + m1 + ",")
                .containsPattern("(?m)^m3 +app +RUNNING +pid " + m3 + ",");
        assertThat(cluster.jsalt("m2", "supervisor.status", "app", "--out", "json").stdout()).contains("pid " + m2Again);

        // a minion killed with SIGKILL: its program runs on, its rows go stale, and come back current with the
        // same pid when the minion returns and adopts it
        cluster.minion("m3").destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> table().lines()
                .anyMatch(l -> l.matches("m3 +app +RUNNING +pid " + m3 + ",.*\\(minion not connected: stale\\)")));
        assertThat(alive(m3)).isTrue();
        cluster.startMinion("m3", PROGRAM);
        assertThat(awaitCurrentPid("m3", -1)).isEqualTo(m3);
        assertThat(Cluster.read(cluster.minionLog("m3"))).contains("adopted app (pid " + m3);

        // a minion restart: the program is not stopped nor started again
        cluster.stopMinion("m1");
        assertThat(cluster.minion("m1").waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(alive(m1)).isTrue();
        cluster.startMinion("m1", PROGRAM);
        await().atMost(Duration.ofSeconds(60)).until(() -> Cluster.read(cluster.minionLog("m1")).contains("adopted app (pid " + m1));
        assertThat(awaitCurrentPid("m1", -1)).isEqualTo(m1);
        assertThat(alive(m1)).isTrue();
        assertThat(cluster.jsalt("m1", "supervisor.pid", "app").stdout()).contains(Long.toString(m1));
    }

    private long webPid(String minion) throws IOException, InterruptedException {
        Cluster.Result r = cluster.jsalt(minion, "supervisor.pid", "web", "--out", "json");
        Matcher m = Pattern.compile("\"" + minion + "\":\\s*(\\d+)").matcher(r.stdout());
        assertThat(m.find()).as(r.toString()).isTrue();
        long pid = Long.parseLong(m.group(1));
        pids.add(pid);
        return pid;
    }

    @Test
    void programsPushedFromTheMasterAndARollingRestartThatStopsAtTheFirstFailure() throws Exception {
        for (String id : List.of("m1", "m3")) {
            Cluster.Result added = cluster.jsalt(id, "supervisor.add", "web", "command=sleep 1003", "startsecs=0");
            assertThat(added.exitCode()).as(added.toString()).isZero();
            assertThat(added.stdout()).contains("web: added process group");
        }
        // on m2 the program cannot start: the rolling restart must stop there
        Cluster.Result broken = cluster.jsalt("m2", "supervisor.add", "web", "command=sh -c 'exit 3'", "startsecs=1",
                "startretries=0", "backoff=0.1");
        assertThat(broken.stdout()).as(broken.toString()).contains("web: added process group");
        long m1 = webPid("m1");
        long m3 = webPid("m3");
        assertThat(m1).isPositive();
        assertThat(m3).isPositive();

        Cluster.Result rolling = cluster.jsalt("m*", "-b", "1", "--failhard", "supervisor.restart", "web");

        assertThat(rolling.exitCode()).as(rolling.toString()).isNotZero();
        assertThat(rolling.stdout() + rolling.stderr()).contains("web: ERROR (abnormal termination)");
        long m1After = webPid("m1");
        long m3After = webPid("m3");
        assertThat(m1After != m1 && m3After != m3).as("the hosts after the failing one were not restarted: " + rolling)
                .isFalse();
        assertThat(List.of(m1After, m3After)).allMatch(pid -> pid > 0);

        // supervisor.watch streams the changes from the master's bus, filtered by minion and program
        Path watched = cluster.root.resolve("watch.out");
        Process watch = new ProcessBuilder(Cluster.JAVA, "-cp", Cluster.CLASSPATH, "io.jsalt.cli.run.RunCommand", "-c",
                cluster.masterConfigDir().toString(), "supervisor.watch", "tgt=m1", "program=web")
                .redirectErrorStream(true).redirectOutput(watched.toFile()).start();
        try {
            // restarted until the watch, once it listens, has seen a whole restart
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                cluster.jsalt("m1", "supervisor.restart", "web");
                String seen = Cluster.read(watched);
                return seen.lines().anyMatch(l -> l.matches("\\S+ m1 +web +STOPPED.*"))
                        && seen.lines().anyMatch(l -> l.matches("\\S+ m1 +web +RUNNING +pid \\d+.*"));
            });
            assertThat(Cluster.read(watched)).doesNotContain(" m2 ", " m3 ", " app ");
        } finally {
            watch.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        pids.add(webPid("m1"));

        // a program removed from a minion leaves the master's table; the others' rows stay
        Cluster.Result removed = cluster.jsalt("m2", "supervisor.remove", "web");
        assertThat(removed.stdout()).as(removed.toString()).contains("web: removed process group");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Cluster.Result t = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                    "supervisor.table", "program=web");
            return t.exitCode() == 0 && t.stdout().lines().noneMatch(l -> l.startsWith("m2 "))
                    && t.stdout().lines().anyMatch(l -> l.startsWith("m1 "));
        });
    }
}
