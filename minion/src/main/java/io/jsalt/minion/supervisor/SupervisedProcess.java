package io.jsalt.minion.supervisor;

import io.jsalt.modules.builtin.cmd.CommandLine;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One supervised process and Supervisor's state machine for it (supervisor.process.Subprocess):
 * <pre>
 * STOPPED/EXITED/FATAL --start--> STARTING --startsecs--> RUNNING --exit--> EXITED --autorestart--> STARTING
 *                                 STARTING --exit--> BACKOFF --pause--> STARTING, or FATAL after startretries
 *             STARTING/RUNNING --stop--> STOPPING --exit--> STOPPED   (KILL after stopwaitsecs)
 * </pre>
 * An exit of a child is noticed when it happens, through {@link Process#onExit()}; a process adopted from an
 * earlier minion (or found by its pidfile or pattern) is not this JVM's child: the supervisor's {@link ExitWatch}
 * tells its exit, and {@link #checkAdopted} confirms it by pid and start time. Differences from
 * Supervisor, its known faults: a process that reached RUNNING but exited within {@code max(startsecs, 1 s)}
 * of its start, and is to be restarted, counts as a failed start (EXITED, then BACKOFF, FATAL after
 * {@code startretries}) instead of restarting for ever (Supervisor #405); the pause after a failed start
 * doubles each time, with jitter, instead of growing by one second.
 *
 * <p>Not thread-safe: every method runs on the owning {@link Supervisor}'s one thread.
 */
final class SupervisedProcess {
    private static final Logger log = LoggerFactory.getLogger(SupervisedProcess.class);
    /** A process up for less than this (or startsecs) when it exits counts as a start that failed. */
    private static final Duration MIN_UPTIME = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    /** What a process needs from its supervisor: its thread, its clock of timers, and whom to tell. */
    interface Host {
        /** Runs {@code task} on the supervisor's thread. */
        void execute(Runnable task);

        /** Runs {@code task} on the supervisor's thread after {@code delay}. */
        Future<?> schedule(Runnable task, Duration delay);

        /** Called when a new process runs (its pid is known), on the supervisor's thread. */
        void launched();

        /** Called on every state change, on the supervisor's thread. */
        void changed(ProcessSnapshot snapshot);

        /** Called when the process is one this JVM cannot wait for (not its child): its exit is to be watched. */
        void adopted(long pid, long ticks);

        /** A process jsalt did not start that is this program's by its pidfile or pattern, none the supervisor has. */
        java.util.Optional<Adoption.Found> findOutside(ProgramConfig config);

        double jitter();
    }

    private final ProgramConfig config;
    /** {@link ProcessRecords#launch} of the config, once asked for. */
    private String launch;
    private final Host host;
    private final List<Waiter> waiters = new ArrayList<>();
    private ProcessState state = ProcessState.STOPPED;
    private Instant since = Instant.now();
    /** The process while there is one: a child of this minion, or one an earlier minion started (adopted). */
    private ProcessHandle process;
    /** Its start time in /proc (see {@link ProcStart}): with the pid, what identifies it across minions. */
    private long startTicks = -1;
    private Instant started;
    private Integer exitstatus;
    private String spawnerr = "";
    private int failedStarts;
    private int restarts;
    /** Each spawn gets a new number: timers and exits of an older process are recognised and ignored. */
    private long generation;
    /** Whether the process is not this JVM's child (adopted): its exit is found by {@link #checkAdopted}. */
    private boolean adopted;
    private Future<?> timer;
    /** The descendants of the process when its stop began, for stopasgroup/killasgroup. */
    private List<ProcessHandle> stopGroup = List.of();

    SupervisedProcess(ProgramConfig config, Host host) {
        this.config = config;
        this.host = host;
    }

    ProgramConfig config() {
        return config;
    }

    ProcessState state() {
        return state;
    }

    /** The pid of the process while there is one, else 0. */
    long pid() {
        return process == null ? 0 : process.pid();
    }

    /** Whether the process is not this JVM's child: its exit is told by the exit watch, or polled. */
    boolean isAdopted() {
        return adopted && process != null;
    }

    ProcessSnapshot snapshot() {
        return new ProcessSnapshot(config.name(), config.group(), state, process == null ? 0 : process.pid(),
                exitstatus, since, started, restarts, spawnerr);
    }

    /**
     * Takes over a process an earlier minion started for this definition (its pid and start time were checked
     * by the caller): RUNNING, or STARTING for what remains of its startsecs. Its exit code cannot be known
     * (it is not this JVM's child), so its exit counts as unexpected.
     */
    void adopt(ProcessHandle running, long ticks, Instant startedAt, int restartsSoFar) {
        generation++;
        process = running;
        adopted = true;
        startTicks = ticks;
        started = startedAt;
        restarts = restartsSoFar;
        spawnerr = "";
        log.info("adopted {} (pid {}, started {})", config.name(), running.pid(), startedAt);
        host.adopted(running.pid(), ticks);
        Duration left = Duration.between(Instant.now(), startedAt.plusSeconds(config.startsecs()));
        if (left.isNegative() || left.isZero()) {
            transition(ProcessState.RUNNING);
        } else {
            long gen = generation;
            transition(ProcessState.STARTING);
            timer = host.schedule(() -> startedLongEnough(gen), left);
        }
    }

    /**
     * For an adopted process: notices its exit, when its pid no longer has its start time (called when the exit
     * watch tells an exit of its pid, or every second when the pid is polled; a child's exit is announced instead).
     */
    void checkAdopted() {
        if (adopted && process != null && !ProcStart.isSame(process.pid(), startTicks)) {
            exited(generation, null);
        }
    }

    /** What the state file keeps of this process while it runs, for the next minion; null when none runs. */
    ProcessRecords.Entry record() {
        if (process == null || !state.hasProcess() || startTicks < 0) {
            return null;
        }
        if (launch == null) {
            launch = ProcessRecords.launch(config); // a digest: made once, the state file is written at every change
        }
        return new ProcessRecords.Entry(config.name(), process.pid(), startTicks, started.toEpochMilli(), restarts,
                config.stopsignal(), launch);
    }

    /** Supervisor's startProcess: false when a process already runs (or is starting or stopping). */
    boolean start() {
        if (state.hasProcess()) {
            return false;
        }
        cancelTimer();
        failedStarts = 0; // asked for by an operator: a new series of attempts
        spawn();
        return true;
    }

    /** Supervisor's stopProcess: false when there is nothing to stop. */
    boolean stop() {
        if (state == ProcessState.BACKOFF) {
            cancelTimer();
            generation++;
            transition(ProcessState.STOPPED);
            return true;
        }
        if (state == ProcessState.EXITED && timer != null) {
            cancelTimer(); // looking for an adopted process's replacement (adoptwaitsecs): no restart now
            generation++;
            transition(ProcessState.STOPPED);
            return true;
        }
        if (state != ProcessState.STARTING && state != ProcessState.RUNNING) {
            return state == ProcessState.STOPPING;
        }
        if (adopted && !alive()) {
            exited(generation, null); // gone since the last check: never signal a pid that may be another's now
            return stop(); // what its exit led to (a restart, a backoff) is stopped; no longer adopted, no loop
        }
        cancelTimer();
        transition(ProcessState.STOPPING);
        long gen = generation;
        log.info("stopping {} (pid {}) with SIG{}", config.name(), process.pid(), config.stopsignal());
        // taken now: once the process is gone its children are reparented and no longer its descendants
        stopGroup = config.stopasgroup() || config.killasgroup() ? process.descendants().toList() : List.of();
        Signals.send(process, config.stopsignal());
        if (config.stopasgroup()) {
            stopGroup.forEach(child -> Signals.send(child, config.stopsignal()));
        }
        timer = host.schedule(() -> killIfStillStopping(gen), Duration.ofSeconds(config.stopwaitsecs()));
        return true;
    }

    /** Sends {@code signal} (a name without SIG) to the process; false when there is none. */
    boolean signal(String signal) {
        if (process == null || !state.hasProcess() || (adopted && !alive())) {
            return false;
        }
        Signals.send(process, signal);
        return true;
    }

    /** Completes with the snapshot once the state satisfies {@code until} (at once when it already does). */
    CompletableFuture<ProcessSnapshot> when(Predicate<ProcessState> until) {
        CompletableFuture<ProcessSnapshot> future = new CompletableFuture<>();
        if (until.test(state)) {
            future.complete(snapshot());
        } else {
            waiters.add(new Waiter(until, future));
        }
        return future;
    }

    private void spawn() {
        generation++;
        long gen = generation;
        spawnerr = "";
        started = Instant.now();
        transition(ProcessState.STARTING);
        Process child;
        try {
            child = launch();
        } catch (IOException | IllegalArgumentException e) {
            spawnerr = "spawn error: " + e.getMessage();
            log.warn("{}: {}", config.name(), spawnerr);
            failedStart();
            return;
        }
        process = child.toHandle();
        adopted = false;
        startTicks = ProcStart.of(child.pid()).orElse(-1);
        log.info("spawned {} with pid {}", config.name(), child.pid());
        host.launched();
        if (config.pidfile() != null) {
            // a daemon: the command forks into the background and exits; the process is the pid it writes down
            long launcherTicks = startTicks;
            child.onExit().thenAccept(p -> host.execute(() -> launcherExited(gen, p.exitValue(), launcherTicks)));
            return;
        }
        child.onExit().thenAccept(p -> host.execute(() -> exited(gen, p.exitValue())));
        if (config.startsecs() == 0) {
            transition(ProcessState.RUNNING);
        } else {
            timer = host.schedule(() -> startedLongEnough(gen), Duration.ofSeconds(config.startsecs()));
        }
    }

    private Process launch() throws IOException {
        // Supervisor splits the command line itself (shlex) and execs it: no shell unless the command names one
        List<String> argv = CommandLine.split(config.command());
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("empty command");
        }
        if (config.umask() != null) {
            // a shell that sets the mask and execs the command: the pid and command line are the program's
            List<String> masked = new ArrayList<>(List.of("/bin/sh", "-c",
                    "umask " + String.format("%03o", config.umask()) + " && exec \"$@\"", "sh"));
            masked.addAll(argv);
            argv = masked;
        }
        if (config.user() != null) {
            argv = config.user().wrap(argv); // setpriv execs the command: the pid is the program's
        }
        ProcessBuilder builder = new ProcessBuilder(argv);
        if (config.directory() != null) {
            builder.directory(config.directory().toFile());
        }
        builder.environment().putAll(config.environment());
        builder.environment().put("SUPERVISOR_PROCESS_NAME", config.name());
        builder.environment().put("SUPERVISOR_GROUP_NAME", config.group());
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // the process writes into its log files itself: no pipe to this minion that its exit would break
        builder.redirectOutput(OutputLog.open(config.stdout()));
        if (config.redirectStderr()) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(OutputLog.open(config.stderr()));
        }
        return builder.start();
    }

    /** Whether the process still runs: an adopted one only while its pid has its start time (no reused pid). */
    private boolean alive() {
        return adopted ? ProcStart.isSame(process.pid(), startTicks) : process.isAlive();
    }

    /**
     * The command of a pidfile program exited: with 0, the daemon it started is the pid in the pidfile, if that
     * pid runs and started after the command (an older pid left in the file is not taken); else a failed start.
     */
    private void launcherExited(long gen, int code, long launcherTicks) {
        if (gen != generation) {
            return;
        }
        if (state == ProcessState.STOPPING) {
            // stopped while the command ran: it may have forked the daemon before it got the signal
            if (takeDaemon(launcherTicks)) {
                log.info("stopping {} (pid {}, forked by its command before the stop) with SIG{}", config.name(),
                        process.pid(), config.stopsignal());
                Signals.send(process, config.stopsignal()); // the KILL after stopwaitsecs stays due, for it now
            } else {
                exited(gen, code);
            }
            return;
        }
        if (state != ProcessState.STARTING || code != 0) {
            exited(gen, code);
            return;
        }
        if (!takeDaemon(launcherTicks)) {
            spawnerr = "pidfile " + config.pidfile() + ": no process started by the command";
            log.warn("{}: {}", config.name(), spawnerr);
            exited(gen, code);
            return;
        }
        log.info("{} runs as pid {} (from {})", config.name(), process.pid(), config.pidfile());
        if (config.startsecs() == 0) {
            transition(ProcessState.RUNNING);
        } else {
            timer = host.schedule(() -> startedLongEnough(gen), Duration.ofSeconds(config.startsecs()));
        }
    }

    /**
     * Takes the daemon the command started as the process: the pid in the pidfile, if it runs and started no
     * earlier than the command (an older pid left in the file is not taken). Not this JVM's child: watched as an
     * adopted process is.
     */
    private boolean takeDaemon(long launcherTicks) {
        java.util.OptionalLong pid = PidFile.read(config.pidfile(), config.user());
        java.util.OptionalLong ticks = pid.isPresent() ? ProcStart.of(pid.getAsLong()) : java.util.OptionalLong.empty();
        java.util.Optional<ProcessHandle> daemon = pid.isPresent() ? ProcessHandle.of(pid.getAsLong()) : java.util.Optional.empty();
        if (ticks.isEmpty() || daemon.isEmpty() || ticks.getAsLong() < launcherTicks) {
            return false;
        }
        process = daemon.get();
        adopted = true;
        startTicks = ticks.getAsLong();
        host.launched();
        host.adopted(process.pid(), startTicks);
        return true;
    }

    private void startedLongEnough(long gen) {
        if (gen == generation && state == ProcessState.STARTING) {
            transition(ProcessState.RUNNING);
        }
    }

    private void killIfStillStopping(long gen) {
        if (gen == generation && state == ProcessState.STOPPING && process != null && alive()) {
            log.warn("{} (pid {}) did not stop within stopwaitsecs={}: killing it with SIGKILL", config.name(),
                    process.pid(), config.stopwaitsecs());
            process.destroyForcibly();
        }
        if (gen == generation && config.killasgroup()) {
            stopGroup.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** @param code the exit code, null when it cannot be known (an adopted process) */
    private void exited(long gen, Integer code) {
        if (gen != generation) {
            return;
        }
        if (state == ProcessState.STOPPING && config.killasgroup()) {
            timer = null; // the KILL stays due: it is for the descendants that may outlive the process
        } else {
            cancelTimer();
        }
        Duration uptime = Duration.between(started, Instant.now());
        exitstatus = code;
        ProcessState was = state;
        boolean wasAdopted = adopted;
        process = null;
        adopted = false;
        startTicks = -1;
        log.info("{} exited with status {} after {} ms ({})", config.name(), code == null ? "unknown (adopted)" : code,
                uptime.toMillis(), was);
        switch (was) {
            case STOPPING -> transition(ProcessState.STOPPED);
            case STARTING -> failedStart();
            case RUNNING -> exitedFromRunning(code, uptime, wasAdopted);
            default -> log.debug("{}: an exit in state {} ignored", config.name(), was);
        }
    }

    private void exitedFromRunning(Integer code, Duration uptime, boolean wasAdopted) {
        boolean expected = code != null && config.exitcodes().contains(code);
        transition(ProcessState.EXITED);
        if (!config.autorestart().restarts(expected)) {
            return;
        }
        if (wasAdopted && config.adoptwaitsecs() > 0 && config.adoptsOutsiders()) {
            // what started it may start it again (a cron job, its own wrapper): that one is adopted instead
            long gen = generation;
            Instant until = Instant.now().plusSeconds(config.adoptwaitsecs());
            timer = host.schedule(() -> lookForReplacement(gen, until, uptime), Duration.ofMillis(
                    Math.min(1000, config.adoptwaitsecs() * 1000L)));
            return;
        }
        restartAfterExit(uptime);
    }

    /**
     * Once a second for {@code adoptwaitsecs} after an adopted process exited: a replacement found by the pidfile
     * or the pattern is adopted; when none came, the program is started with its command.
     */
    private void lookForReplacement(long gen, Instant until, Duration uptime) {
        if (gen != generation || state != ProcessState.EXITED) {
            return;
        }
        timer = null;
        java.util.Optional<Adoption.Found> found = host.findOutside(config);
        if (found.isPresent()) {
            log.info("{}: adopting pid {}, found by {} after the last one exited", config.name(),
                    found.get().handle().pid(), found.get().how());
            adopt(found.get().handle(), found.get().ticks(), found.get().startedAt(), restarts);
            return;
        }
        Duration left = Duration.between(Instant.now(), until);
        if (left.isNegative() || left.isZero()) {
            log.info("{}: nothing replaced the process within adoptwaitsecs={}: starting it", config.name(),
                    config.adoptwaitsecs());
            restartAfterExit(uptime);
        } else {
            timer = host.schedule(() -> lookForReplacement(gen, until, uptime),
                    left.compareTo(Duration.ofSeconds(1)) < 0 ? left : Duration.ofSeconds(1));
        }
    }

    private void restartAfterExit(Duration uptime) {
        Duration minimum = Duration.ofSeconds(config.startsecs()).compareTo(MIN_UPTIME) > 0
                ? Duration.ofSeconds(config.startsecs()) : MIN_UPTIME;
        if (uptime.compareTo(minimum) < 0) {
            failedStart(); // Supervisor #405: a fast exit is a failed start even after RUNNING
            return;
        }
        failedStarts = 0; // it stayed up: its earlier failures no longer count
        restarts++;
        spawn();
    }

    private void failedStart() {
        failedStarts++;
        transition(ProcessState.BACKOFF);
        if (failedStarts > config.startretries()) {
            log.error("{} gave up after {} failed starts: FATAL", config.name(), failedStarts);
            transition(ProcessState.FATAL);
            return;
        }
        long gen = generation;
        Duration pause = backoff(failedStarts);
        log.info("{} will be started again in {} ms (failed start {} of {})", config.name(), pause.toMillis(),
                failedStarts, config.startretries() + 1);
        timer = host.schedule(() -> retry(gen), pause);
    }

    /** The pause before retry n: backoff x 2^(n-1), at most a minute, spread by +-20 %. */
    private Duration backoff(int n) {
        long base = config.backoff().toMillis() << Math.min(n - 1, 20);
        long capped = Math.min(base, MAX_BACKOFF.toMillis());
        return Duration.ofMillis(Math.max(1, Math.round(capped * (0.8 + 0.4 * host.jitter()))));
    }

    private void retry(long gen) {
        if (gen == generation && state == ProcessState.BACKOFF) {
            restarts++;
            spawn();
        }
    }

    private void transition(ProcessState next) {
        state = next;
        since = Instant.now();
        ProcessSnapshot now = snapshot();
        host.changed(now);
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.until.test(next)) {
                it.remove();
                w.future.complete(now);
            }
        }
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private record Waiter(Predicate<ProcessState> until, CompletableFuture<ProcessSnapshot> future) {
    }
}
