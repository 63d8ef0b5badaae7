package io.jsalt.cli.daemon;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a daemon the way operators expect (Salt's start-up, Puppet's daemon): verify the folders, refuse a
 * second instance, check the ports, start, take the locked pid file, then serve signals on the main loop
 * until a stop. With {@code -d} this process only checks what it can (so the operator sees the error
 * and its exit code directly), starts itself detached and waits for the child to be up.
 *
 * @param <C> the daemon's config type
 */
final class DaemonLauncher<C> {
    private static final Logger log = LoggerFactory.getLogger(DaemonLauncher.class);
    /** How long {@code -d} waits for the daemon to be up (a cold JVM on a busy host, a slow key generation). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final DaemonRole<C> role;
    private final DaemonOptions options;
    private final PrintStream err;
    private final IntConsumer halt;

    DaemonLauncher(DaemonRole<C> role, DaemonOptions options, PrintStream err, IntConsumer halt) {
        this.role = role;
        this.options = options;
        this.err = err;
        this.halt = halt;
    }

    ExitCode run() throws IOException, InterruptedException {
        C config = role.load(options.configDir());
        DaemonProfile profile = role.profile(config);
        Path pidPath = options.pidFile(profile.daemon().pidfile());
        DaemonEnvironment.verify(profile);
        if (options.detach()) {
            refuseIfRunning(pidPath);
            role.preflight(config);
            return new Detacher(role.name(), role.mainClass().getName(), options.childArgs(pidPath), pidPath,
                    profile.logFile(), START_TIMEOUT, err).detach();
        }
        boolean console = !options.detachedChild();
        if (console) {
            // before opening the log file a running daemon is writing
            refuseIfRunning(pidPath);
        }
        Logging logging = Logging.forDaemon(profile.logSettings(options.logLevel(), console));
        try {
            return serve(config, pidPath, logging);
        } catch (RuntimeException e) {
            if (!console) {
                // the detached child's stderr is /dev/null: the log file is where the parent looks
                log.error("{} not started: {}", role.name(), e instanceof CliException ? e.getMessage() : e.toString());
            }
            throw e;
        }
    }

    private ExitCode serve(C config, Path pidPath, Logging logging) throws InterruptedException {
        refuseIfRunning(pidPath);
        role.preflight(config);
        DaemonRole.Running<C> running = role.start(config);
        Session session = new Session(config, running, logging);
        DaemonLoop loop = new DaemonLoop(role.name(), session, session::gracefulTimeout, halt);
        // before the pid file exists: once it does, `systemctl reload` may send HUP, which would end an
        // unprepared JVM
        loop.installSignalsAndHook();
        running.stoppedOnItsOwn().thenAccept(s -> loop.post(new DaemonLoop.Request.Finished(s.code(), s.why())));
        try {
            session.pidFile = PidFile.acquire(pidPath, ProcessHandle.current().pid());
        } catch (PidFile.AlreadyRunningException e) {
            running.close();
            throw alreadyRunning(pidPath, e.pid());
        } catch (UncheckedIOException e) {
            running.close();
            throw new CliException(ExitCode.CONFIG, e.getMessage());
        }
        log.info("{} running with pid {} (pid file {})", role.name(), ProcessHandle.current().pid(), pidPath);
        return loop.run();
    }

    private void refuseIfRunning(Path pidPath) {
        try {
            PidFile.lockedBy(pidPath).ifPresent(pid -> {
                throw alreadyRunning(pidPath, pid);
            });
        } catch (UncheckedIOException e) {
            throw new CliException(ExitCode.CONFIG, e.getMessage());
        }
    }

    private CliException alreadyRunning(Path pidPath, long pid) {
        return new CliException(ExitCode.ALREADY_RUNNING,
                role.name() + " is already running with pid " + pid + " (pid file " + pidPath + ")");
    }

    /** The running daemon and what the loop's requests act on; used on the loop's thread only. */
    private final class Session implements DaemonLoop.Actions {
        private volatile C config;
        private final DaemonRole.Running<C> running;
        private final Logging logging;
        /** Set once taken, after the signal handlers are in place. */
        private volatile PidFile pidFile;

        Session(C config, DaemonRole.Running<C> running, Logging logging) {
            this.config = config;
            this.running = running;
            this.logging = logging;
        }

        Duration gracefulTimeout() {
            return Duration.ofSeconds(role.profile(config).daemon().gracefulShutdownTimeout());
        }

        @Override
        public void reload() {
            C next;
            try {
                next = role.load(options.configDir());
            } catch (CliException e) {
                log.error("configuration not reloaded, keeping the running one: {}", e.getMessage());
                return;
            }
            DaemonProfile was = role.profile(config);
            DaemonProfile is = role.profile(next);
            logging.apply(is.logSettings(options.logLevel(), !options.detachedChild()));
            log.debug("logging now: file {} at {}, console at {}", is.logFile(), logging.settings().fileLevel(),
                    logging.settings().consoleLevel() == null ? "none" : logging.settings().consoleLevel());
            List<String> needRestart = new ArrayList<>(running.reload(next));
            if (!Objects.equals(was.daemon().pidfile(), is.daemon().pidfile())) {
                needRestart.add("pidfile");
            }
            config = next;
            if (needRestart.isEmpty()) {
                log.info("configuration reloaded from {}", options.configDir());
            } else {
                log.warn("configuration reloaded from {}; these settings keep their old value until a restart: {}",
                        options.configDir(), needRestart);
            }
        }

        @Override
        public void reopenLogs() {
            logging.reopen();
            log.info("log file {} reopened", logging.settings().logFile());
        }

        @Override
        public void stop() {
            try {
                running.close();
            } finally {
                if (pidFile != null) {
                    pidFile.close();
                }
            }
        }
    }
}
