package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor with real child processes: Supervisor's states and transitions, stop and KILL, logs. */
class SupervisorTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
    }

    private SupervisorHarness supervise(Map<String, Object> programs) {
        harness = new SupervisorHarness(dir, programs).start();
        return harness;
    }

    private static Map<String, Object> program(Object... keysAndValues) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keys.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return keys;
    }

    @Test
    void startsAnAutostartProgramAndStopsItWithTerm() {
        SupervisorHarness h = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "0")));

        ProcessSnapshot running = h.awaitState("app", ProcessState.RUNNING);
        assertThat(running.pid()).isPositive();
        assertThat(ProcessHandle.of(running.pid()).map(ProcessHandle::isAlive)).contains(true);
        assertThat(running.description()).startsWith("pid " + running.pid() + ", uptime 0:00:");

        assertThat(h.supervisor.stopProcesses("app")).containsExactly("app: stopped");
        assertThat(h.status("app").state()).isEqualTo(ProcessState.STOPPED);
        assertThat(h.status("app").exitstatus()).isEqualTo(128 + 15);
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(running.pid()).isEmpty()
                || !ProcessHandle.of(running.pid()).get().isAlive());
        assertThat(h.statesOf("app")).containsExactly(ProcessState.STARTING, ProcessState.RUNNING,
                ProcessState.STOPPING, ProcessState.STOPPED);
    }

    @Test
    void staysStartingUntilStartsecsThenRuns() {
        SupervisorHarness h = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "1")));

        assertThat(h.statesOf("app")).startsWith(ProcessState.STARTING);
        h.awaitState("app", ProcessState.RUNNING);
        assertThat(h.statesOf("app")).containsExactly(ProcessState.STARTING, ProcessState.RUNNING);
    }

    @Test
    void programThatExitsAtOnceGoesThroughBackoffToFatalAfterStartretries() {
        SupervisorHarness h = supervise(Map.of("crash", program("command", "false", "startsecs", "1",
                "startretries", "2", "backoff", "0.05")));

        h.awaitState("crash", ProcessState.FATAL);
        // the first start and 2 retries, each exiting before startsecs
        assertThat(h.statesOf("crash")).containsExactly(
                ProcessState.STARTING, ProcessState.BACKOFF,
                ProcessState.STARTING, ProcessState.BACKOFF,
                ProcessState.STARTING, ProcessState.BACKOFF, ProcessState.FATAL);
        assertThat(h.status("crash").exitstatus()).isEqualTo(1);
        assertThat(h.status("crash").restarts()).isEqualTo(2);
        assertThat(h.status("crash").description()).isEqualTo("Exited too quickly (process log may have details)");
    }

    @Test
    void fastUnexpectedExitAfterRunningReachesFatalInsteadOfLoopingForEver() {
        // Supervisor #405: startsecs=0 makes every start "succeed", so autorestart=unexpected loops for ever
        SupervisorHarness h = supervise(Map.of("flap", program("command", "sh -c 'exit 3'", "startsecs", "0",
                "startretries", "2", "autorestart", "unexpected", "backoff", "0.05")));

        h.awaitState("flap", ProcessState.FATAL);
        List<ProcessState> states = h.statesOf("flap");
        assertThat(states).startsWith(ProcessState.STARTING, ProcessState.RUNNING, ProcessState.EXITED, ProcessState.BACKOFF);
        assertThat(states).endsWith(ProcessState.BACKOFF, ProcessState.FATAL);
        assertThat(states.stream().filter(s -> s == ProcessState.STARTING)).hasSize(3);
        assertThat(h.status("flap").exitstatus()).isEqualTo(3);
    }

    @Test
    void expectedExitWithAutorestartUnexpectedStaysExited() {
        SupervisorHarness h = supervise(Map.of("once", program("command", "sh -c 'exit 2'", "startsecs", "0",
                "exitcodes", "0,2", "backoff", "0.05")));

        h.awaitState("once", ProcessState.EXITED);
        assertThat(h.status("once").exitstatus()).isEqualTo(2);
        assertThat(h.supervisor.stopProcesses("once")).containsExactly("once: ERROR (not running)");
        assertThat(h.statesOf("once")).containsExactly(ProcessState.STARTING, ProcessState.RUNNING, ProcessState.EXITED);
    }

    @Test
    void autorestartTrueStartsAgainAProgramThatStayedUpAndExited() {
        SupervisorHarness h = supervise(Map.of("batch", program("command", "sh -c 'sleep 1.2'", "startsecs", "1",
                "autorestart", "true")));

        ProcessSnapshot again = h.awaitStatus("batch", s -> s.restarts() >= 1 && s.state() == ProcessState.STARTING
                || s.restarts() >= 1 && s.state() == ProcessState.RUNNING);
        assertThat(h.statesOf("batch")).startsWith(ProcessState.STARTING, ProcessState.RUNNING, ProcessState.EXITED,
                ProcessState.STARTING);
        assertThat(again.exitstatus()).isZero();
    }

    @Test
    void programThatIgnoresTermIsKilledAfterStopwaitsecs() throws Exception {
        Path ready = dir.resolve("trap-set");
        SupervisorHarness h = supervise(Map.of("stubborn", program(
                "command", "sh -c 'trap \"\" TERM; touch " + ready + "; while :; do sleep 0.1; done'",
                "startsecs", "0", "stopwaitsecs", "1")));
        h.awaitState("stubborn", ProcessState.RUNNING);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(ready));

        assertThat(h.supervisor.stopProcesses("stubborn")).containsExactly("stubborn: stopped");

        ProcessSnapshot stopped = h.status("stubborn");
        assertThat(stopped.state()).isEqualTo(ProcessState.STOPPED);
        assertThat(stopped.exitstatus()).as("killed by SIGKILL, not ended by TERM").isEqualTo(128 + 9);
    }

    @Test
    void writesOutputToTheLogFileAndTailReadsItsLastLines() throws Exception {
        SupervisorHarness h = supervise(Map.of("talker", program(
                "command", "sh -c 'for i in 1 2 3 4 5; do echo line$i; done; echo oops >&2; exec sleep 1000'",
                "startsecs", "0")));
        Path log = h.logDir.resolve("talker-stdout.log");

        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(log, 1).equals("line5\n"));
        assertThat(new SupervisorModule(h.supervisor).tail("talker", 2)).isEqualTo("line4\nline5\n");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(h.logDir.resolve("talker-stderr.log"), 5)
                .equals("oops\n"));
        assertThat(Files.getPosixFilePermissions(log)).extracting(Object::toString)
                .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
    }

    @Test
    void rotatesTheLogPastMaxbytesAndKeepsOnlyTheBackups() throws Exception {
        // each batch: 60 lines of 20 bytes in one write, 1,200 bytes through a 1,000-byte log with 2 backups;
        // SIGUSR1 asks for one more batch
        String batch = "v=; i=0; while [ $i -lt 60 ]; do v=\"$v$1-$(printf %04d $i)-abcdefghijkl\n\"; i=$((i+1)); done; "
                + "printf %s \"$v\"";
        SupervisorHarness h = supervise(Map.of("chatty", program(
                "command", "sh -c 'b() { " + batch + "; }; n=1; b $n; more() { n=$((n+1)); b $n; }; trap more USR1; "
                        + "while :; do sleep 0.2; done'",
                "startsecs", "0", "stdout_logfile_maxbytes", "1000", "stdout_logfile_backups", "2")));
        Path log = h.logDir.resolve("chatty-stdout.log");

        // the process writes the file itself; the supervisor copies it away and cuts it once it is past maxbytes
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(OutputLog.backup(log, 1)) && Files.size(log) == 0);
        assertThat(OutputLog.backup(log, 1)).hasSize(1200);
        for (int n = 2; n <= 3; n++) {
            String last = n + "-0059-abcdefghijkl\n";
            h.supervisor.signalProcesses("chatty", "USR1");
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(OutputLog.backup(log, 1))
                    && LogTail.lastLines(OutputLog.backup(log, 1), 1).equals(last) && Files.size(log) == 0);
        }

        assertThat(OutputLog.backup(log, 2)).hasSize(1200);
        assertThat(LogTail.lastLines(OutputLog.backup(log, 2), 1)).isEqualTo("2-0059-abcdefghijkl\n");
        assertThat(OutputLog.backup(log, 3)).doesNotExist();
        assertThat(Files.getPosixFilePermissions(OutputLog.backup(log, 1))).extracting(Object::toString)
                .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
        // the process appends: after the cut its next write starts the file again, with no hole before it
        h.supervisor.signalProcesses("chatty", "USR1");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(OutputLog.backup(log, 1), 1)
                .equals("4-0059-abcdefghijkl\n"));
        assertThat(Files.readString(OutputLog.backup(log, 1))).startsWith("4-0000-abcdefghijkl\n").hasSize(1200);
    }

    @Test
    void givesTheProgramItsEnvironmentAndDirectory() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        SupervisorHarness h = supervise(Map.of("env", program(
                "command", "sh -c 'echo \"$GREETING|$NUM|$SUPERVISOR_PROCESS_NAME\"; pwd; exec sleep 1000'",
                "environment", "GREETING=\"hello, world\",NUM=%(process_num)d",
                "directory", work.toString(), "startsecs", "0")));
        Path log = h.logDir.resolve("env-stdout.log");

        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(log, 2).lines().count() == 2);
        assertThat(LogTail.lastLines(log, 2)).isEqualTo("hello, world|0|env\n" + work.toRealPath() + "\n");
    }

    @Test
    void umaskIsTheProcesssAndPriorityOrdersTheStartsAndTheStops() throws Exception {
        SupervisorHarness h = supervise(Map.of(
                "late", program("command", "sh -c 'umask; exec sleep 1000'", "umask", "027", "priority", "200",
                        "startsecs", "0"),
                "early", program("command", "sleep 1000", "priority", "100", "startsecs", "0")));
        Path log = h.logDir.resolve("late-stdout.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> LogTail.lastLines(log, 1).equals("0027\n"));
        long late = h.awaitState("late", ProcessState.RUNNING).pid();
        assertThat(CommandLines.commandLine(Path.of("/proc", Long.toString(late)))).contains("sleep 1000");

        List<String> started;
        synchronized (h.changes) {
            started = h.changes.stream().filter(c -> c.state() == ProcessState.STARTING).map(ProcessSnapshot::name).toList();
        }
        assertThat(started).containsExactly("early", "late");
        assertThat(h.supervisor.stopProcesses("all")).containsExactly("late: stopped", "early: stopped");
    }

    @Test
    void numprocsGivesOneProcessPerNumberInOneGroup() {
        SupervisorHarness h = supervise(Map.of("web", program("command", "sleep 1000", "startsecs", "0",
                "numprocs", "2", "process_name", "%(program_name)s_%(process_num)02d")));

        h.awaitState("web_00", ProcessState.RUNNING);
        h.awaitState("web_01", ProcessState.RUNNING);
        assertThat(new SupervisordModule(h.supervisor).status(null)).containsOnlyKeys("web:web_00", "web:web_01");

        // as supervisorctl: stopped in the reverse of the start order
        assertThat(h.supervisor.stopProcesses("web:")).containsExactly("web:web_01: stopped", "web:web_00: stopped");
        assertThat(h.supervisor.startProcesses("web:web_01")).containsExactly("web:web_01: started");
        assertThat(h.status("web_00").state()).isEqualTo(ProcessState.STOPPED);
    }

    @Test
    void startOfAProcessThatCannotBeSpawnedReportsASpawnError() {
        SupervisorHarness h = supervise(Map.of("ghost", program("command", dir.resolve("no-such-program").toString(),
                "autostart", "false", "startretries", "0", "backoff", "0.05")));

        assertThat(h.status("ghost").state()).isEqualTo(ProcessState.STOPPED);
        assertThat(h.status("ghost").description()).isEqualTo("Not started");
        assertThat(h.supervisor.startProcesses("ghost")).containsExactly("ghost: ERROR (spawn error)");
        assertThat(h.status("ghost").state()).isEqualTo(ProcessState.FATAL);
        assertThat(h.status("ghost").description()).startsWith("spawn error: ");
    }

    @Test
    void stoppingAProgramInBackoffStopsItsRetries() {
        SupervisorHarness h = supervise(Map.of("crash", program("command", "false", "startsecs", "1",
                "startretries", "100", "backoff", "5")));
        h.awaitState("crash", ProcessState.BACKOFF);

        assertThat(h.supervisor.stopProcesses("crash")).containsExactly("crash: stopped");
        assertThat(h.status("crash").state()).isEqualTo(ProcessState.STOPPED);
    }

    @Test
    void refusesADefinitionItCannotUseAndStartsNothing() {
        harness = new SupervisorHarness(dir, Map.of(
                "good", program("command", "sleep 1000", "startsecs", "0"),
                "bad", program("command", "sleep 1000", "startsecs", "soon")));

        assertThatThrownBy(harness::start).isInstanceOf(ConfigException.class)
                .hasMessageContaining("supervisor:bad startsecs").hasMessageContaining("expected an integer");
        assertThat(harness.changes).isEmpty();
    }

    @Test
    void stopasgroupSignalsTheChildrenOfAShellWrapperToo() throws Exception {
        Path childPid = dir.resolve("child.pid");
        SupervisorHarness h = supervise(Map.of(
                "wrapped", program("command", "sh -c 'sleep 1000 & echo $! > " + childPid + "; wait'",
                        "startsecs", "0", "stopasgroup", "true", "stopwaitsecs", "5")));
        h.awaitState("wrapped", ProcessState.RUNNING);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(childPid) && Files.readString(childPid).endsWith("\n"));
        long child = Long.parseLong(Files.readString(childPid).strip());
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).contains(true);

        assertThat(h.supervisor.stopProcesses("wrapped")).containsExactly("wrapped: stopped");

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void killasgroupKillsChildrenThatIgnoreTermAfterStopwaitsecs() throws Exception {
        Path childPid = dir.resolve("child.pid");
        SupervisorHarness h = supervise(Map.of(
                "wrapped", program("command", "sh -c 'sh -c \"trap \\\"\\\" TERM; echo \\$\\$ > " + childPid
                        + "; while :; do sleep 0.1; done\" & wait'",
                        "startsecs", "0", "killasgroup", "true", "stopwaitsecs", "1")));
        h.awaitState("wrapped", ProcessState.RUNNING);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(childPid) && Files.readString(childPid).endsWith("\n"));
        long child = Long.parseLong(Files.readString(childPid).strip());

        assertThat(h.supervisor.stopProcesses("wrapped")).containsExactly("wrapped: stopped");

        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void aProgramKilledFromOutsideAfterStartingIsStartedAgainAtOnce() {
        SupervisorHarness h = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "1")));
        long first = h.awaitState("app", ProcessState.RUNNING).pid();

        ProcessHandle.of(first).orElseThrow().destroyForcibly(); // a crash: kill -9 from outside

        ProcessSnapshot again = h.awaitStatus("app", s -> s.restarts() == 1 && s.state() == ProcessState.RUNNING);
        assertThat(again.pid()).isNotEqualTo(first);
        assertThat(h.statesOf("app")).containsExactly(ProcessState.STARTING, ProcessState.RUNNING, ProcessState.EXITED,
                ProcessState.STARTING, ProcessState.RUNNING);
        assertThat(h.changes.stream().filter(c -> c.state() == ProcessState.EXITED).findFirst().orElseThrow().exitstatus())
                .isEqualTo(128 + 9);
    }

    @Test
    void aLogFileThatCannotBeWrittenIsASpawnError() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("plain-file"), "x");
        SupervisorHarness h = supervise(Map.of("app", program("command", "sleep 1000", "startsecs", "0",
                "autostart", "false", "startretries", "0", "stdout_logfile", notAFolder.resolve("app.log").toString())));

        assertThat(h.supervisor.startProcesses("app")).containsExactly("app: ERROR (spawn error)");
        assertThat(h.status("app").state()).isEqualTo(ProcessState.FATAL);
        assertThat(h.status("app").description()).startsWith("spawn error: ");
    }

    @Test
    void createsTheLogFileWhenTheProcessStartsBeforeItWritesAnything() {
        SupervisorHarness h = supervise(Map.of("quiet", program("command", "sleep 1000", "startsecs", "0")));
        h.awaitState("quiet", ProcessState.RUNNING);

        assertThat(h.logDir.resolve("quiet-stdout.log")).exists().isEmptyFile();
        assertThat(h.logDir.resolve("quiet-stderr.log")).exists();
        assertThat(new SupervisorModule(h.supervisor).tail("quiet", 10)).isEmpty();
    }
}
