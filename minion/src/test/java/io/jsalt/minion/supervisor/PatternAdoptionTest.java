package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pattern=}: a process jsalt did not start, found by its command line, is adopted instead of started; its
 * exit is noticed and the program started with its command, after {@code adoptwaitsecs} in which a replacement
 * (started by whatever started the first one) is adopted instead.
 */
class PatternAdoptionTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;
    private final List<Process> outsiders = new ArrayList<>();

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
        outsiders.forEach(Process::destroyForcibly);
    }

    /** A process started outside the supervisor (by the test), recognisable by its odd sleep time. */
    private Process outside(String seconds) throws Exception {
        Process p = new ProcessBuilder("sleep", seconds).start();
        outsiders.add(p);
        return p;
    }

    private static Map<String, Object> program(String seconds, Object... more) {
        Map<String, Object> keys = new LinkedHashMap<>();
        keys.put("command", "sleep " + seconds);
        keys.put("pattern", "^sleep " + seconds.replace(".", "\\.") + "$");
        keys.put("startsecs", "0");
        for (int i = 0; i < more.length; i += 2) {
            keys.put((String) more[i], more[i + 1]);
        }
        return keys;
    }

    @Test
    void aProcessFoundByItsCommandLineIsAdoptedAndRestartedWithTheCommandWhenItExits() throws Exception {
        Process first = outside("7919.25");
        harness = new SupervisorHarness(dir, Map.of("legacy", program("7919.25"))).start();

        assertThat(harness.awaitState("legacy", ProcessState.RUNNING).pid()).isEqualTo(first.pid());
        assertThat(harness.statesOf("legacy")).as("adopted, not started").containsExactly(ProcessState.RUNNING);

        first.destroyForcibly().waitFor();
        ProcessSnapshot again = harness.awaitStatus("legacy", s -> s.state() == ProcessState.RUNNING && s.pid() != first.pid());
        assertThat(ProcessHandle.of(again.pid()).orElseThrow().parent().map(ProcessHandle::pid))
                .as("started by the supervisor, its child").contains(ProcessHandle.current().pid());
        assertThat(harness.supervisor.stopProcesses("legacy")).containsExactly("legacy: stopped");
    }

    @Test
    void withoutTheExitWatchTheExitOfAnAdoptedProcessIsFoundByLookingEverySecond() throws Exception {
        Process first = outside("7919.125");
        harness = new SupervisorHarness(dir, Map.of("legacy", program("7919.125"))).withoutExitWatch().start();
        assertThat(harness.awaitState("legacy", ProcessState.RUNNING).pid()).isEqualTo(first.pid());

        first.destroyForcibly().waitFor();

        harness.awaitStatus("legacy", s -> s.state() == ProcessState.RUNNING && s.pid() != first.pid());
        assertThat(harness.statesOf("legacy")).containsSubsequence(ProcessState.RUNNING, ProcessState.EXITED,
                ProcessState.STARTING, ProcessState.RUNNING);
    }

    @Test
    void aReplacementStartedWithinAdoptwaitsecsIsAdoptedInsteadOfStartingTheCommand() throws Exception {
        Process first = outside("7919.5");
        harness = new SupervisorHarness(dir, Map.of("legacy", program("7919.5", "adoptwaitsecs", "60"))).start();
        harness.awaitStatus("legacy", s -> s.state() == ProcessState.RUNNING && s.pid() == first.pid());

        first.destroyForcibly().waitFor();
        harness.awaitState("legacy", ProcessState.EXITED);
        Process second = outside("7919.5");

        assertThat(harness.awaitState("legacy", ProcessState.RUNNING).pid()).isEqualTo(second.pid());
        assertThat(harness.statesOf("legacy")).containsExactly(ProcessState.RUNNING, ProcessState.EXITED, ProcessState.RUNNING);
    }

    @Test
    void aStopWhileWaitingForAReplacementStartsNothing() throws Exception {
        Process first = outside("7919.75");
        harness = new SupervisorHarness(dir, Map.of("legacy", program("7919.75", "adoptwaitsecs", "60"))).start();
        harness.awaitStatus("legacy", s -> s.state() == ProcessState.RUNNING && s.pid() == first.pid());
        first.destroyForcibly().waitFor();
        harness.awaitState("legacy", ProcessState.EXITED);

        assertThat(harness.supervisor.stopProcesses("legacy")).containsExactly("legacy: stopped");

        assertThat(harness.status("legacy").state()).isEqualTo(ProcessState.STOPPED);
        assertThat(harness.statesOf("legacy")).containsExactly(ProcessState.RUNNING, ProcessState.EXITED, ProcessState.STOPPED);
    }

    @Test
    void twoProgramsWithTheSamePatternTakeTwoProcessesTheOldestFirst() throws Exception {
        Process older = outside("7920.25");
        Process younger = outside("7920.25");
        harness = new SupervisorHarness(dir, Map.of("a", program("7920.25"), "b", program("7920.25"))).start();

        long a = harness.awaitState("a", ProcessState.RUNNING).pid();
        long b = harness.awaitState("b", ProcessState.RUNNING).pid();
        assertThat(List.of(a, b)).containsExactlyInAnyOrder(older.pid(), younger.pid());
        assertThat(harness.statesOf("a")).containsExactly(ProcessState.RUNNING);
        assertThat(harness.statesOf("b")).containsExactly(ProcessState.RUNNING);
    }
}
