package io.jsalt.cli.daemon;

import io.jsalt.cli.ExitCode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One kind of daemon as {@link DaemonLauncher} drives it: how to read its config, what to check before
 * starting, how to start it. {@link MasterDaemon} and {@link MinionDaemon} are the two.
 *
 * @param <C> its config type
 */
interface DaemonRole<C> {
    /** {@code jsalt-master} or {@code jsalt-minion}, for messages. */
    String name();

    /** The class whose main runs this daemon: {@code -d} runs it again. */
    Class<?> mainClass();

    /** @throws io.jsalt.cli.CliException with EX_CONFIG when the config is missing or bad */
    C load(Path configDir);

    DaemonProfile profile(C config);

    /** Checks that need no state, before anything starts (the master's port check). */
    default void preflight(C config) {}

    /** Starts the daemon; it is up (ports bound, minion started) when this returns. */
    Running<C> start(C config);

    /** A started daemon. */
    interface Running<C> {
        /** Applies a re-read config; returns the keys whose change needs a restart. */
        List<String> reload(C next);

        /** Completes when the daemon stops on its own (a rejected minion), with the exit code and why. */
        CompletableFuture<Stopped> stoppedOnItsOwn();

        /** Graceful stop. */
        void close();
    }

    /** Why a daemon stopped on its own. */
    record Stopped(ExitCode code, String why) {}
}
