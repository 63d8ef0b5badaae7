package io.jsalt.minion.supervisor;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a supervisor takes over rather than starts: the processes an earlier minion left running (from the state
 * file, pid and start time checked), and processes jsalt did not start, found by a program's pidfile or its
 * pattern; and what it stops: processes left running for programs no longer defined. Runs on the supervisor's
 * thread.
 */
final class Adoption {
    private static final Logger log = LoggerFactory.getLogger(Adoption.class);

    /** A process found outside the supervisor for a program, and how. */
    record Found(ProcessHandle handle, long ticks, Instant startedAt, String how) {
    }

    private Adoption() {
    }

    /**
     * Takes over the process an earlier minion started for {@code p}, if it still runs: the same pid with the
     * same start time (a pid alone may have been reused). Started with another definition, it is restarted (the
     * start queued on the supervisor's {@code thread}).
     */
    static boolean adoptRecorded(SupervisedProcess p, ProcessRecords.Entry entry, Executor thread) {
        if (entry == null || !ProcStart.isSame(entry.pid(), entry.startTicks())) {
            return false;
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
     * A process jsalt did not start (or whose record was lost) for a program with a {@code pidfile} or a
     * {@code pattern}: the pid in the pidfile if it runs, else the oldest process of the minion's user whose
     * command line matches the pattern; none of the {@code excluded} pids (processes the supervisor has already).
     */
    static Optional<Found> findOutside(ProgramConfig config, Set<Long> excluded) {
        Path pidfile = config.pidfile();
        if (pidfile != null) {
            OptionalLong pid = PidFile.read(pidfile, config.user());
            OptionalLong ticks = pid.isPresent() ? ProcStart.of(pid.getAsLong()) : OptionalLong.empty();
            Optional<ProcessHandle> handle = pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : Optional.empty();
            if (ticks.isPresent() && handle.isPresent() && !excluded.contains(pid.getAsLong())) {
                return Optional.of(new Found(handle.get(), ticks.getAsLong(),
                        handle.get().info().startInstant().orElse(Instant.now()), "its pidfile " + pidfile));
            }
        }
        if (config.pattern() != null) {
            List<CommandLines.Match> matches = CommandLines.matching(Pattern.compile(config.pattern()), excluded,
                    config.user() == null ? -1 : config.user().uid());
            for (CommandLines.Match m : matches) {
                Optional<ProcessHandle> handle = ProcessHandle.of(m.pid());
                if (handle.isPresent() && ProcStart.isSame(m.pid(), m.ticks())) {
                    if (matches.size() > 1) {
                        log.warn("{}: {} processes match the pattern {}: taking the oldest, pid {}", config.name(),
                                matches.size(), config.pattern(), m.pid());
                    }
                    return Optional.of(new Found(handle.get(), m.ticks(),
                            handle.get().info().startInstant().orElse(Instant.now()), "its pattern (" + m.commandLine() + ")"));
                }
            }
        }
        return Optional.empty();
    }

    /** Adopts the process {@link #findOutside} finds for {@code p}; false when there is none. */
    static boolean adoptOutside(SupervisedProcess p, Set<Long> excluded) {
        if (!p.config().adoptsOutsiders()) {
            return false;
        }
        Optional<Found> found = findOutside(p.config(), excluded);
        found.ifPresent(f -> {
            log.info("{}: adopting pid {} found by {}", p.config().name(), f.handle().pid(), f.how());
            p.adopt(f.handle(), f.ticks(), f.startedAt(), 0);
        });
        return found.isPresent();
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
