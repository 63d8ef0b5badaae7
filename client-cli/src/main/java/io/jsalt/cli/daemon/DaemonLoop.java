package io.jsalt.cli.daemon;

import io.jsalt.cli.ExitCode;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's main loop (Puppet's pattern): signal handlers and the shutdown hook only post requests to a
 * queue, and the thread that called {@link #run} does the work one request at a time, so a reload never
 * races a stop. A stop has a deadline ({@code graceful_shutdown_timeout}); past it the process is halted
 * through the hook given (Runtime.halt in the launcher, a recorder in tests).
 */
final class DaemonLoop {
    private static final Logger log = LoggerFactory.getLogger(DaemonLoop.class);

    /** What the loop does for each request; called on the loop's thread only. */
    interface Actions {
        /** SIGHUP: re-read the config and apply what can change live. */
        void reload();

        /** SIGUSR2: reopen the log file. */
        void reopenLogs();

        /** TERM/INT/shutdown: stop everything, gracefully. */
        void stop();
    }

    /** A request on the queue. */
    sealed interface Request {
        record Stop(String why) implements Request {}

        record Reload() implements Request {}

        record ReopenLogs() implements Request {}

        /** The daemon stopped on its own (a minion whose key was rejected): stop and exit with this code. */
        record Finished(ExitCode code, String why) implements Request {}
    }

    private final String name;
    private final Actions actions;
    private final Supplier<Duration> deadline;
    private final IntConsumer halt;
    private final BlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean serving = new java.util.concurrent.atomic.AtomicBoolean();

    DaemonLoop(String name, Actions actions, Supplier<Duration> deadline, IntConsumer halt) {
        this.name = name;
        this.actions = actions;
        this.deadline = deadline;
        this.halt = halt;
    }

    void post(Request request) {
        queue.add(request);
    }

    /**
     * Routes TERM and INT to a stop, HUP to a reload and USR2 to a log reopen, and adds a shutdown hook
     * that stops the daemon when the JVM is asked to exit some other way (or when the signal API is
     * missing, a plain TERM).
     */
    void installSignalsAndHook() {
        Signals.Installed installed = Signals.install(java.util.Map.of(
                "TERM", () -> post(new Request.Stop("SIGTERM")),
                "INT", () -> post(new Request.Stop("SIGINT")),
                "HUP", () -> post(new Request.Reload()),
                "USR2", () -> post(new Request.ReopenLogs())));
        if (!installed.missing().isEmpty()) {
            log.warn("signals not handled here: {} ({})", installed.missing(), installed.why());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopFromHook, name + "-shutdown"));
    }

    /** Serves requests until a stop; returns the exit code. */
    ExitCode run() throws InterruptedException {
        serving.set(true);
        try {
            while (true) {
                Request request = queue.take();
                if (request instanceof Request.Reload) {
                    guarded("reload", actions::reload);
                } else if (request instanceof Request.ReopenLogs) {
                    guarded("reopen the log file", actions::reopenLogs);
                } else if (request instanceof Request.Stop s) {
                    log.info("{} stopping ({})", name, s.why());
                    stopWithDeadline();
                    return ExitCode.OK;
                } else if (request instanceof Request.Finished f) {
                    log.error("{} stopping: {}", name, f.why());
                    stopWithDeadline();
                    return f.code();
                }
            }
        } finally {
            done.countDown();
        }
    }

    private void stopWithDeadline() {
        Duration limit = deadline.get();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread watchdog = new Thread(() -> {
            try {
                if (!stopped.await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    log.error("{} did not stop within graceful_shutdown_timeout ({} s): halting", name, limit.toSeconds());
                    halt.accept(ExitCode.SOFTWARE.code());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name + "-stop-deadline");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            actions.stop();
        } finally {
            stopped.countDown();
        }
        log.info("{} stopped", name);
    }

    private void guarded(String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // a failed reload must not take the daemon down: it keeps running on what it had
            log.error("could not {}: {}", what, e.toString());
        }
    }

    private void stopFromHook() {
        if (!serving.get() || done.getCount() == 0) {
            // never served (start-up failed: the launcher closed what it started) or already stopped
            return;
        }
        post(new Request.Stop("JVM shutdown"));
        try {
            // one second more than the loop's own deadline, so its watchdog speaks first
            done.await(deadline.get().toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
