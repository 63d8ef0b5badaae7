package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A supervisor closed with {@code supervisor_on_stop: leave} leaves its programs running, and the next one
 * (a new minion) adopts them from the state file: same pids, exits noticed, stop and signal work, while a
 * reused pid, a changed definition or a program no longer defined are not taken for what they were.
 */
class AdoptionTest {
    @TempDir
    Path dir;
    private final List<SupervisorHarness> harnesses = new ArrayList<>();
    private final List<Long> outsiders = new ArrayList<>();

    @AfterEach
    void killEveryChild() {
        harnesses.forEach(SupervisorHarness::close);
        outsiders.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private SupervisorHarness supervise(Map<String, Object> programs) {
        SupervisorHarness h = new SupervisorHarness(dir, programs).leavingRunning().start();
        harnesses.add(h);
        return h;
    }

    private static Map<String, Object> program(Object... keysAndValues) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keys.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return keys;
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static Map<String, Object> appAndTalker() {
        return Map.of("app", program("command", "sleep 1000", "startsecs", "0"),
                // prints a line for each SIGUSR1: its output must reach its log with no supervisor running
                "talker", program("command", "sh -c 'trap \"echo ping\" USR1; echo hello; while :; do sleep 0.2; done'",
                        "startsecs", "0"));
    }

    @Test
    void aNewSupervisorAdoptsTheProgramsTheLastOneLeftRunningWithTheirPids() throws Exception {
        SupervisorHarness first = supervise(appAndTalker());
        long app = first.awaitState("app", ProcessState.RUNNING).pid();
        long talker = first.awaitState("talker", ProcessState.RUNNING).pid();
        Path talkerLog = first.logDir.resolve("talker-stdout.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(talkerLog, 1).equals("hello\n"));

        first.closeSupervisor();
        assertThat(alive(app)).isTrue();
        assertThat(alive(talker)).isTrue();
        assertThat(Files.getPosixFilePermissions(first.recordsFile())).extracting(Object::toString)
                .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
        // no supervisor: the program still writes into its log (no pipe to a supervisor that is gone)
        Signals.send(ProcessHandle.of(talker).orElseThrow(), "USR1");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(talkerLog, 1).equals("ping\n"));

        SupervisorHarness second = supervise(appAndTalker());
        assertThat(second.status("app").state()).isEqualTo(ProcessState.RUNNING);
        assertThat(second.status("app").pid()).isEqualTo(app);
        assertThat(second.status("talker").pid()).isEqualTo(talker);
        assertThat(second.statesOf("app")).containsExactly(ProcessState.RUNNING); // adopted, never started again
        assertThat(second.supervisor.signalProcesses("talker", "USR1")).containsExactly("talker: signalled");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(talkerLog, 2).equals("ping\nping\n"));

        // an adopted process is not this JVM's child: its death is still noticed, and autorestart applies
        ProcessHandle.of(app).orElseThrow().destroyForcibly();
        ProcessSnapshot restarted = second.awaitStatus("app", s -> s.state() == ProcessState.RUNNING && s.pid() != app);
        assertThat(second.statesOf("app")).containsSubsequence(ProcessState.RUNNING, ProcessState.EXITED,
                ProcessState.RUNNING);
        assertThat(restarted.restarts()).isEqualTo(1);
        assertThat(second.changes.stream().filter(c -> c.name().equals("app") && c.state() == ProcessState.EXITED)
                .findFirst().orElseThrow().exitstatus()).as("an adopted process's exit code cannot be known").isNull();

        // stop works on an adopted process, and the state file forgets it
        assertThat(second.supervisor.stopProcesses("talker")).containsExactly("talker: stopped");
        await().atMost(Duration.ofSeconds(30)).until(() -> !alive(talker));
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.readString(second.recordsFile()).contains("talker "));
        assertThat(Files.readString(second.recordsFile())).contains("app " + restarted.pid() + " ");
    }

    @Test
    void aPidWhoseStartTimeDiffersIsNotAdoptedNorSignalled() throws Exception {
        SupervisorHarness first = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "0")));
        long app = first.awaitState("app", ProcessState.RUNNING).pid();
        first.closeSupervisor();
        outsiders.add(app);
        // as if the pid now belonged to another process: same pid, another start time
        String records = Files.readString(first.recordsFile());
        String line = records.lines().filter(l -> l.startsWith("app ")).findFirst().orElseThrow();
        String[] fields = line.split(" ");
        fields[2] = Long.toString(Long.parseLong(fields[2]) + 1);
        Files.writeString(first.recordsFile(), records.replace(line, String.join(" ", fields)));

        SupervisorHarness second = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "0")));
        long started = second.awaitState("app", ProcessState.RUNNING).pid();

        assertThat(started).isNotEqualTo(app);
        assertThat(alive(app)).as("the process that is not ours is left alone").isTrue();
        assertThat(second.supervisor.stopProcesses("app")).containsExactly("app: stopped");
        assertThat(alive(app)).isTrue();
    }

    @Test
    void aChangedDefinitionRestartsTheAdoptedProcessAndAProgramNoLongerDefinedIsStopped() throws Exception {
        SupervisorHarness first = supervise(Map.of(
                "app", program("command", "sleep 1000", "startsecs", "0"),
                "old", program("command", "sleep 1000", "startsecs", "0")));
        long app = first.awaitState("app", ProcessState.RUNNING).pid();
        long old = first.awaitState("old", ProcessState.RUNNING).pid();
        first.closeSupervisor();
        outsiders.add(app);
        outsiders.add(old);

        SupervisorHarness second = supervise(Map.of("app", program("command", "sleep 1001", "startsecs", "0")));

        ProcessSnapshot now = second.awaitStatus("app", s -> s.state() == ProcessState.RUNNING && s.pid() != app);
        await().atMost(Duration.ofSeconds(30)).until(() -> !alive(app) && !alive(old));
        Optional<String> command = ProcessHandle.of(now.pid()).flatMap(h -> h.info().commandLine());
        assertThat(command).hasValueSatisfying(c -> assertThat(c).endsWith("sleep 1001"));
        assertThat(second.statesOf("app")).containsSubsequence(ProcessState.RUNNING, ProcessState.STOPPING,
                ProcessState.STOPPED, ProcessState.STARTING, ProcessState.RUNNING);
    }

    @Test
    void withSupervisorOnStopStopTheProgramsStopWithTheSupervisorAndNothingIsLeftToAdopt() throws Exception {
        SupervisorHarness h = new SupervisorHarness(dir, Map.of("app", program("command", "sleep 1000", "startsecs", "0")));
        harnesses.add(h);
        ProcessRecords records = new ProcessRecords(h.recordsFile());
        h.supervisor = new Supervisor(new ProgramDefinitions(Map.of("app", program("command", "sleep 1000", "startsecs", "0")),
                dir.resolve("minion"), h.iniDir, SupervisorHarness.parser(h.logDir)), s -> { }, "jsalt-supervisor-test",
                records, false, null);
        h.supervisor.start();
        long app = h.awaitState("app", ProcessState.RUNNING).pid();
        outsiders.add(app);
        await().atMost(Duration.ofSeconds(30)).until(() -> records.read().containsKey("app"));

        h.supervisor.close();

        assertThat(alive(app)).isFalse();
        assertThat(records.read()).isEmpty();
    }
}
