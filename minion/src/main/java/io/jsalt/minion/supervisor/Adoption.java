package io.jsalt.minion.supervisor;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a starting supervisor takes over rather than starts: the processes an earlier minion left running (from
 * the state file, pid and start time checked) and daemons found by their pidfile; and what it stops: processes
 * left running for programs no longer defined. Runs on the supervisor's thread.
 */
final class Adoption {
    private static final Logger log = LoggerFactory.getLogger(Adoption.class);

    private Adoption() {
    }

    /**
     * Takes over the process an earlier minion started for {@code p}, if it still runs: the same pid with the
     * same start time (a pid alone may have been reused); else a daemon's, by its pidfile. Started with another
     * definition, it is restarted (the start queued on the supervisor's {@code thread}).
     */
    static boolean adopt(SupervisedProcess p, ProcessRecords.Entry entry, Executor thread) {
        if (entry == null || !ProcStart.isSame(entry.pid(), entry.startTicks())) {
            return adoptFromPidfile(p);
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(entry.pid());
        if (handle.isEmpty()) {
            return false;
        }
        p.adopt(handle.get(), entry.startTicks(), Instant.ofEpochMilli(entry.startedMillis()), entry.restarts());
        if (!entry.launch().equals(ProcessRecords.launch(p.config()))) {
            log.info("{} (pid {}) was started with another definition: restarting it", p.config().name(), entry.pid());
            if (p.stop()) {
                // started from the thread's queue, not inside the transition that completes the wait
                p.when(ProcessState::isStopped).thenRun(() -> thread.execute(p::start));
            }
        }
        return true;
    }

    /**
     * A daemon jsalt did not start (or whose record was lost): the pid in the program's pidfile, if it runs, is
     * taken as the program's process; its exit then restarts the program with its command, as autorestart says.
     */
    private static boolean adoptFromPidfile(SupervisedProcess p) {
        Path pidfile = p.config().pidfile();
        if (pidfile == null) {
            return false;
        }
        OptionalLong pid = PidFile.read(pidfile);
        OptionalLong ticks = pid.isPresent() ? ProcStart.of(pid.getAsLong()) : OptionalLong.empty();
        Optional<ProcessHandle> handle = pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : Optional.empty();
        if (ticks.isEmpty() || handle.isEmpty()) {
            return false;
        }
        log.info("{}: adopting pid {} from its pidfile {}", p.config().name(), pid.getAsLong(), pidfile);
        Instant startedAt = handle.get().info().startInstant().orElse(Instant.now());
        p.adopt(handle.get(), ticks.getAsLong(), startedAt, 0);
        return true;
    }

    /**
     * The processes an earlier minion left running for programs no longer defined: sent their stop signal (no
     * KILL follows: their stopwaitsecs went with their definition).
     */
    static void stopLeftovers(Map<String, ProcessRecords.Entry> found, Map<String, ProgramConfig> read) {
        found.values().stream()
                .filter(e -> !read.containsKey(e.name()) && ProcStart.isSame(e.pid(), e.startTicks()))
                .forEach(e -> ProcessHandle.of(e.pid()).ifPresent(h -> {
                    log.warn("{} (pid {}) is no longer defined: stopping it with SIG{}", e.name(), e.pid(), e.stopsignal());
                    Signals.send(h, e.stopsignal());
                }));
    }
}
