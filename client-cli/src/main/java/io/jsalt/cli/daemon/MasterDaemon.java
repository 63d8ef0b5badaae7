package io.jsalt.cli.daemon;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.Master;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jsalt-master [-c DIR] [-d] [--pid-file PATH] [-l LEVEL]}: runs the master, in the foreground or
 * detached, until TERM or INT; HUP reloads the config, USR2 reopens the log file (see {@link DaemonLauncher}).
 */
@Command(name = "jsalt-master", mixinStandardHelpOptions = true, version = "jsalt-master 0.1.0",
        description = "Run the jsalt master.")
public final class MasterDaemon implements Callable<ExitCode>, DaemonRole<MasterConfig> {
    @Mixin
    DaemonOptions options;

    public static void main(String[] argv) {
        MasterDaemon daemon = new MasterDaemon();
        System.exit(DaemonOptions.run(daemon, o -> daemon.options = o, System.err, argv));
    }

    @Override
    public ExitCode call() throws Exception {
        return new DaemonLauncher<>(this, options, System.err, code -> Runtime.getRuntime().halt(code)).run();
    }

    @Override
    public String name() {
        return "jsalt-master";
    }

    @Override
    public Class<?> mainClass() {
        return MasterDaemon.class;
    }

    @Override
    public MasterConfig load(Path configDir) {
        return ConfigLoader.master(configDir);
    }

    @Override
    public DaemonProfile profile(MasterConfig config) {
        return DaemonProfile.of(config);
    }

    @Override
    public void preflight(MasterConfig config) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("publish_port", config.publishPort());
        ports.put("ret_port", config.retPort());
        PortCheck.requireFree(config.interfaceAddress(), ports);
    }

    @Override
    public Running<MasterConfig> start(MasterConfig config) {
        // the master makes (and closes) its socket contexts itself: it replaces one whose I/O thread died
        Master master = new Master(config, Transport::create);
        try {
            master.start();
        } catch (TransportException e) {
            // taken between the pre-check and the bind
            throw new CliException(ExitCode.PORTS_UNAVAILABLE, "The ports are not available to bind: " + e.getMessage());
        }
        CompletableFuture<Stopped> failed = master.failure()
                .thenApply(why -> new Stopped(ExitCode.SOFTWARE, "a component could not be kept up: " + why));
        return new Running<>() {
            @Override
            public List<String> reload(MasterConfig next) {
                return master.reload(next);
            }

            @Override
            public CompletableFuture<Stopped> stoppedOnItsOwn() {
                return failed;
            }

            @Override
            public void close() {
                master.close();
            }
        };
    }
}
