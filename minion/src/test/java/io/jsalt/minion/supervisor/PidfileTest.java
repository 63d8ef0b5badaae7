package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pidfile=}: a command that forks a daemon into the background and exits; the process supervised is the
 * daemon's pid from the file. And a daemon jsalt did not start, found by its pidfile, is adopted.
 */
class PidfileTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;
    private final List<Long> outsiders = new ArrayList<>();

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
        outsiders.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private Map<String, Object> daemon(Path pidfile, Object... more) {
        Map<String, Object> keys = new LinkedHashMap<>();
        // the usual daemon: fork into the background, write the pid, exit 0
        keys.put("command", "sh -c 'sleep 1000 & echo $! > " + pidfile + "'");
        keys.put("pidfile", pidfile.toString());
        keys.put("startsecs", "0");
        for (int i = 0; i < more.length; i += 2) {
            keys.put((String) more[i], more[i + 1]);
        }
        return keys;
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private long track(long pid) {
        outsiders.add(pid);
        return pid;
    }

    @Test
    void theDaemonInThePidfileIsTheProcessSupervisedRestartedAndStopped() throws Exception {
        Path pidfile = dir.resolve("app.pid");
        harness = new SupervisorHarness(dir, Map.of("app", daemon(pidfile))).start();

        ProcessSnapshot running = harness.awaitState("app", ProcessState.RUNNING);
        long daemon = track(running.pid());
        assertThat(daemon).isEqualTo(Long.parseLong(Files.readString(pidfile).strip()));
        assertThat(ProcessHandle.of(daemon).flatMap(h -> h.info().commandLine())).hasValueSatisfying(
                c -> assertThat(c).endsWith("sleep 1000"));

        // the daemon dies: noticed although it is nobody's child here, and started again with the command
        ProcessHandle.of(daemon).orElseThrow().destroyForcibly();
        long again = track(harness.awaitStatus("app", s -> s.state() == ProcessState.RUNNING && s.pid() != daemon).pid());
        assertThat(Long.parseLong(Files.readString(pidfile).strip())).isEqualTo(again);

        assertThat(harness.supervisor.stopProcesses("app")).containsExactly("app: stopped");
        await().atMost(Duration.ofSeconds(30)).until(() -> !alive(again));
    }

    @Test
    void aStopWhileTheCommandStillRunsStopsTheDaemonItAlreadyForkedToo() throws Exception {
        Path pidfile = dir.resolve("slow.pid");
        // forks the daemon, writes its pid, then lingers instead of exiting
        harness = new SupervisorHarness(dir, Map.of("slow", Map.of("command", "sh -c 'sleep 1000 & echo $! > " + pidfile
                + "; exec sleep 1000'", "pidfile", pidfile.toString(), "startsecs", "0", "stopwaitsecs", "5"))).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.isRegularFile(pidfile) && !Files.readString(pidfile).isBlank());
        long daemon = track(Long.parseLong(Files.readString(pidfile).strip()));
        assertThat(harness.status("slow").state()).isEqualTo(ProcessState.STARTING);

        assertThat(harness.supervisor.stopProcesses("slow")).containsExactly("slow: stopped");

        // gone by its start time at once; reaped by init a little later
        assertThat(ProcStart.of(daemon)).as("the daemon the command forked is stopped with it").isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> !alive(daemon));
        assertThat(harness.statesOf("slow")).containsExactly(ProcessState.STARTING, ProcessState.STOPPING, ProcessState.STOPPED);
    }

    @Test
    void aCommandThatLeavesNoRunningProcessInThePidfileIsAFailedStart() {
        Path pidfile = dir.resolve("none.pid");
        harness = new SupervisorHarness(dir, Map.of("none", Map.of("command", "sh -c 'echo 1 > " + pidfile + "'",
                "pidfile", pidfile.toString(), "startsecs", "0", "startretries", "0"))).start();

        ProcessSnapshot fatal = harness.awaitState("none", ProcessState.FATAL);
        assertThat(fatal.description()).isEqualTo("pidfile " + pidfile + ": no process started by the command");
    }

    @Test
    void aPidfileOthersMayWriteIsNotBelievedAndItsProcessIsLeftAlone() throws Exception {
        Process outside = new ProcessBuilder("sleep", "1000").start();
        long pid = track(outside.pid());
        Path pidfile = dir.resolve("planted.pid");
        Files.writeString(pidfile, pid + "\n");
        Files.setPosixFilePermissions(pidfile, PosixFilePermissions.fromString("rw-rw-rw-"));

        // a command that starts nothing: only the planted pid could make this program RUNNING
        harness = new SupervisorHarness(dir, Map.of("planted", Map.of("command", "true", "pidfile", pidfile.toString(),
                "startsecs", "0", "startretries", "0"))).start();

        harness.awaitState("planted", ProcessState.FATAL);
        assertThat(harness.statesOf("planted")).doesNotContain(ProcessState.RUNNING);
        assertThat(alive(pid)).as("the planted pid's process is left alone").isTrue();
    }

    @Test
    void aDaemonJsaltDidNotStartIsAdoptedByItsPidfile() throws Exception {
        Process outside = new ProcessBuilder("sleep", "1000").start();
        long pid = track(outside.pid());
        Path pidfile = dir.resolve("outside.pid");
        Files.writeString(pidfile, pid + "\n");

        harness = new SupervisorHarness(dir, Map.of("outside", daemon(pidfile))).start();

        assertThat(harness.awaitState("outside", ProcessState.RUNNING).pid()).isEqualTo(pid);
        assertThat(harness.statesOf("outside")).containsExactly(ProcessState.RUNNING); // adopted, not started
        outside.destroyForcibly().waitFor();
        long started = track(harness.awaitStatus("outside", s -> s.state() == ProcessState.RUNNING && s.pid() != pid).pid());
        assertThat(ProcessHandle.of(started).flatMap(h -> h.info().commandLine())).hasValueSatisfying(
                c -> assertThat(c).endsWith("sleep 1000"));
    }
}
