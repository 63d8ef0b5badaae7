package io.jsalt.cli.daemon;

import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.ToolRunner;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.Minion;
import io.jsalt.transport.Transport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jsalt-minion -c DIR}: runs one minion in the foreground until TERM or INT. Exits 77 when the
 * master rejects its key (and {@code rejected_retry} is off), as Salt's minion gives up then.
 */
@Command(name = "jsalt-minion", mixinStandardHelpOptions = true, version = "jsalt-minion 0.1.0",
        description = "Run a jsalt minion.")
public final class MinionDaemon implements Callable<ExitCode> {
    @Option(names = {"-c", "--config-dir"}, defaultValue = ConfigLoader.DEFAULT_DIR, description = "Folder holding the 'minion' config file.")
    Path configDir;

    @Option(names = {"-l", "--log-level"}, description = "Overrides log_level: debug, info, warning, error, ...")
    String logLevel;

    public static void main(String[] argv) {
        System.exit(ToolRunner.run(new MinionDaemon(), System.err, argv));
    }

    @Override
    public ExitCode call() throws InterruptedException, ExecutionException {
        MinionConfig config = ConfigLoader.minion(configDir);
        Logging.forDaemon(config.logFile(), logLevel != null ? logLevel : config.logLevel(), true);
        Transport transport = Transport.create();
        Minion minion = new Minion(config, transport);
        minion.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            minion.close();
            transport.close();
        }, "jsalt-minion-shutdown"));
        String reason = minion.terminated().get();
        if ("rejected".equals(reason)) {
            minion.close();
            return ExitCode.NO_PERMISSION;
        }
        return ExitCode.OK;
    }
}
