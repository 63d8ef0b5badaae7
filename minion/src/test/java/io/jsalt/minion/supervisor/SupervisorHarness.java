package io.jsalt.minion.supervisor;

import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A real {@link Supervisor} over a temp folder for tests: programs given as Supervisor's keys, every state
 * change recorded, and every child process it ever started killed by {@link #close()}.
 */
final class SupervisorHarness implements AutoCloseable {
    final Path dir;
    final Path iniDir;
    final Path logDir;
    final List<ProcessSnapshot> changes = Collections.synchronizedList(new ArrayList<>());
    /** The processes the supervisor said it no longer supervises, in order. */
    final List<String> removed = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> pids = Collections.synchronizedList(new ArrayList<>());
    private Map<String, Object> programs;
    /** With {@link #leavingRunning()}: the state file, shared by every harness over the same folder. */
    private ProcessRecords records;
    /** The folder of the programs supervisor.add defines, shared by every harness over the same folder. */
    final PushedPrograms pushed;
    private Path perl = ExitWatch.PERL;
    Supervisor supervisor;

    SupervisorHarness(Path dir, Map<String, Object> programs) {
        this.dir = dir;
        this.iniDir = dir.resolve("supervisor.d");
        this.logDir = dir.resolve("log");
        this.programs = programs;
        this.pushed = new PushedPrograms(dir.resolve("state").resolve("programs"));
    }

    /** The exit watch's helper cannot run (no Perl): adopted processes are looked at every second. */
    SupervisorHarness withoutExitWatch() {
        perl = Path.of("/nonexistent/perl");
        return this;
    }

    /** The supervisor writes its processes down and leaves them running when closed (supervisor_on_stop: leave). */
    SupervisorHarness leavingRunning() {
        records = new ProcessRecords(recordsFile());
        return this;
    }

    Path recordsFile() {
        return dir.resolve("state").resolve("processes");
    }

    /** Closes the supervisor only: what it leaves running is killed by {@link #close()}. */
    void closeSupervisor() {
        supervisor.close();
    }

    /** Starts a supervisor over the programs (and any ini files already in {@link #iniDir}). */
    SupervisorHarness start() {
        Map<String, Object> section = programs;
        supervisor = new Supervisor(new ProgramDefinitions(() -> section, dir.resolve("minion"), iniDir, parser(logDir),
                pushed.dir()),
                new SupervisorListener() {
                    @Override
                    public void accept(ProcessSnapshot snapshot) {
                        if (snapshot.pid() > 0) {
                            pids.add(snapshot.pid());
                            // a wrapper's children, while they can still be found (at STOPPING too, before the wrapper dies)
                            ProcessHandle.of(snapshot.pid()).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
                        }
                        changes.add(snapshot);
                    }

                    @Override
                    public void removed(String name, String group) {
                        removed.add(name);
                    }
                }, "jsalt-supervisor-test", records, records != null, pushed, perl);
        supervisor.start();
        return this;
    }

    static ProgramParser parser(Path logDir) {
        return new ProgramParser(logDir, Map.of("HOME", "/home/tester"), () -> "testhost", System.getProperty("user.name"));
    }

    ProcessSnapshot status(String name) {
        List<ProcessSnapshot> found = supervisor.status(name);
        if (found.size() != 1) {
            throw new AssertionError("expected one process " + name + ", got " + found);
        }
        return found.get(0);
    }

    ProcessSnapshot awaitState(String name, ProcessState state) {
        return awaitStatus(name, s -> s.state() == state);
    }

    ProcessSnapshot awaitStatus(String name, Predicate<ProcessSnapshot> condition) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> condition.test(status(name)));
        return status(name);
    }

    /** The states {@code name} went through, in order. */
    List<ProcessState> statesOf(String name) {
        synchronized (changes) {
            return changes.stream().filter(c -> c.name().equals(name)).map(ProcessSnapshot::state).toList();
        }
    }

    @Override
    public void close() {
        List<ProcessHandle> started = new ArrayList<>();
        synchronized (pids) {
            // the children of a shell wrapper too: they are reparented (out of reach) once the shell is gone
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(h -> {
                started.add(h);
                h.descendants().forEach(started::add);
            }));
        }
        if (supervisor != null) {
            supervisor.close();
        }
        // whatever the supervisor did or did not stop, no child outlives the test
        started.forEach(ProcessHandle::destroyForcibly);
    }
}
