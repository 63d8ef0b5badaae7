package io.jsalt.cli.daemon;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.ToolRunner;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.Master;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jsalt-master -c DIR}: runs the master in the foreground until TERM or INT. */
@Command(name = "jsalt-master", mixinStandardHelpOptions = true, version = "jsalt-master 0.1.0",
        description = "Run the jsalt master.")
public final class MasterDaemon implements Callable<ExitCode> {
    @Option(names = {"-c", "--config-dir"}, defaultValue = ConfigLoader.DEFAULT_DIR, description = "Folder holding the 'master' config file.")
    Path configDir;

    @Option(names = {"-l", "--log-level"}, description = "Overrides log_level: debug, info, warning, error, ...")
    String logLevel;

    public static void main(String[] argv) {
        System.exit(ToolRunner.run(new MasterDaemon(), System.err, argv));
    }

    @Override
    public ExitCode call() throws InterruptedException {
        MasterConfig config = ConfigLoader.master(configDir);
        Logging.forDaemon(config.logFile(), logLevel != null ? logLevel : config.logLevel(), true);
        Transport transport = Transport.create();
        Master master = new Master(config, transport);
        try {
            master.start();
        } catch (TransportException e) {
            transport.close();
            throw new CliException(ExitCode.PORTS_UNAVAILABLE, "The ports are not available to bind: " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            master.close();
            transport.close();
            stopped.countDown();
        }, "jsalt-master-shutdown"));
        stopped.await();
        return ExitCode.OK;
    }
}
