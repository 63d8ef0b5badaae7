package io.jsalt.cli.daemon;

import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.Minion;
import io.jsalt.transport.Transport;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jsalt-minion [-c DIR] [-d] [--pid-file PATH] [-l LEVEL]}: runs one minion, in the foreground or
 * detached, until TERM or INT; HUP reloads the log settings (other changes need a restart and are named in
 * the log), USR2 reopens the log file. Exits 77 when the master rejects its key (and {@code rejected_retry}
 * is off), as Salt's minion gives up then.
 */
@Command(name = "jsalt-minion", mixinStandardHelpOptions = true, version = "jsalt-minion 0.1.0",
        description = "Run a jsalt minion.")
public final class MinionDaemon implements Callable<ExitCode>, DaemonRole<MinionConfig> {
    /** Applied live by the launcher (log settings) or read at each stop (graceful_shutdown_timeout). */
    private static final Set<String> LIVE = Set.of("logLevel", "logFile", "daemon");

    @Mixin
    DaemonOptions options;

    public static void main(String[] argv) {
        MinionDaemon daemon = new MinionDaemon();
        System.exit(DaemonOptions.run(daemon, o -> daemon.options = o, System.err, argv));
    }

    @Override
    public ExitCode call() throws Exception {
        return new DaemonLauncher<>(this, options, System.err, code -> Runtime.getRuntime().halt(code)).run();
    }

    @Override
    public String name() {
        return "jsalt-minion";
    }

    @Override
    public Class<?> mainClass() {
        return MinionDaemon.class;
    }

    @Override
    public MinionConfig load(Path configDir) {
        return ConfigLoader.minion(configDir);
    }

    @Override
    public DaemonProfile profile(MinionConfig config) {
        return DaemonProfile.of(config);
    }

    @Override
    public Running<MinionConfig> start(MinionConfig config) {
        Transport transport = Transport.createForOneProcess();
        Minion minion = new Minion(config, transport);
        try {
            minion.start();
        } catch (RuntimeException e) {
            minion.close();
            transport.close();
            if (e instanceof io.jsalt.config.ConfigException) {
                throw new io.jsalt.cli.CliException(ExitCode.CONFIG, e.getMessage()); // e.g. a bad schedule
            }
            throw e;
        }
        CompletableFuture<Stopped> stopped = minion.terminated().thenCompose(reason -> "rejected".equals(reason)
                ? CompletableFuture.completedFuture(new Stopped(ExitCode.NO_PERMISSION, "the master rejected this minion's key"))
                : reason.startsWith(io.jsalt.minion.masters.MinionMasters.NO_MASTER)
                ? CompletableFuture.completedFuture(new Stopped(ExitCode.UNAVAILABLE, reason + " (retry_dns)"))
                : new CompletableFuture<>());
        return new Running<>() {
            private MinionConfig current = config;

            @Override
            public List<String> reload(MinionConfig next) {
                List<String> changed = ConfigChanges.between(current, next, LIVE);
                current = next;
                return changed;
            }

            @Override
            public CompletableFuture<Stopped> stoppedOnItsOwn() {
                return stopped;
            }

            @Override
            public void close() {
                minion.close();
                transport.close();
            }
        };
    }
}
