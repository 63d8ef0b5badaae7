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
 * An exit is noticed when it happens, through {@link Process#onExit()}, never by polling. Differences from
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

        /** Called on every state change, on the supervisor's thread. */
        void changed(ProcessSnapshot snapshot);

        double jitter();
    }

    private final ProgramConfig config;
    private final Host host;
    private final List<Waiter> waiters = new ArrayList<>();
    private ProcessState state = ProcessState.STOPPED;
    private Instant since = Instant.now();
    private Process process;
    private Instant started;
    private Integer exitstatus;
    private String spawnerr = "";
    private int failedStarts;
    private int restarts;
    /** Each spawn gets a new number: timers and exits of an older process are recognised and ignored. */
    private long generation;
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

    ProcessSnapshot snapshot() {
        return new ProcessSnapshot(config.name(), config.group(), state, process == null ? 0 : process.pid(),
                exitstatus, since, started, restarts, spawnerr);
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
        if (state != ProcessState.STARTING && state != ProcessState.RUNNING) {
            return state == ProcessState.STOPPING;
        }
        cancelTimer();
        transition(ProcessState.STOPPING);
        long gen = generation;
        log.info("stopping {} (pid {}) with SIG{}", config.name(), process.pid(), config.stopsignal());
        // taken now: once the process is gone its children are reparented and no longer its descendants
        stopGroup = config.stopasgroup() || config.killasgroup() ? process.descendants().toList() : List.of();
        Signals.send(process.toHandle(), config.stopsignal());
        if (config.stopasgroup()) {
            stopGroup.forEach(child -> Signals.send(child, config.stopsignal()));
        }
        timer = host.schedule(() -> killIfStillStopping(gen), Duration.ofSeconds(config.stopwaitsecs()));
        return true;
    }

    /** Sends {@code signal} (a name without SIG) to the process; false when there is none. */
    boolean signal(String signal) {
        if (process == null || !state.hasProcess()) {
            return false;
        }
        Signals.send(process.toHandle(), signal);
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
        try {
            process = launch();
        } catch (IOException | IllegalArgumentException e) {
            spawnerr = "spawn error: " + e.getMessage();
            log.warn("{}: {}", config.name(), spawnerr);
            failedStart();
            return;
        }
        log.info("spawned {} with pid {}", config.name(), process.pid());
        Process mine = process;
        mine.onExit().thenAccept(p -> host.execute(() -> exited(gen, p.exitValue())));
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
        ProcessBuilder builder = new ProcessBuilder(argv);
        if (config.directory() != null) {
            builder.directory(config.directory().toFile());
        }
        builder.environment().putAll(config.environment());
        builder.environment().put("SUPERVISOR_PROCESS_NAME", config.name());
        builder.environment().put("SUPERVISOR_GROUP_NAME", config.group());
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.redirectErrorStream(config.redirectStderr());
        OutputLog stdout = OutputLog.open(config.stdout());
        OutputLog stderr;
        try {
            stderr = OutputLog.open(config.redirectStderr() ? ProgramConfig.LogSettings.NONE : config.stderr());
        } catch (IOException e) {
            stdout.abandon();
            throw e;
        }
        Process p;
        try {
            p = builder.start();
        } catch (IOException e) {
            stdout.abandon();
            stderr.abandon();
            throw e;
        }
        stdout.pump(p.getInputStream(), "jsalt-supervisor-stdout-" + config.name());
        if (!config.redirectStderr()) {
            stderr.pump(p.getErrorStream(), "jsalt-supervisor-stderr-" + config.name());
        }
        return p;
    }

    private void startedLongEnough(long gen) {
        if (gen == generation && state == ProcessState.STARTING) {
            transition(ProcessState.RUNNING);
        }
    }

    private void killIfStillStopping(long gen) {
        if (gen == generation && state == ProcessState.STOPPING && process != null && process.isAlive()) {
            log.warn("{} (pid {}) did not stop within stopwaitsecs={}: killing it with SIGKILL", config.name(),
                    process.pid(), config.stopwaitsecs());
            process.destroyForcibly();
        }
        if (gen == generation && config.killasgroup()) {
            stopGroup.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    private void exited(long gen, int code) {
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
        process = null;
        log.info("{} exited with status {} after {} ms ({})", config.name(), code, uptime.toMillis(), was);
        switch (was) {
            case STOPPING -> transition(ProcessState.STOPPED);
            case STARTING -> failedStart();
            case RUNNING -> exitedFromRunning(code, uptime);
            default -> log.debug("{}: an exit in state {} ignored", config.name(), was);
        }
    }

    private void exitedFromRunning(int code, Duration uptime) {
        boolean expected = config.exitcodes().contains(code);
        transition(ProcessState.EXITED);
        if (!config.autorestart().restarts(expected)) {
            return;
        }
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
