package io.jsalt.cli.daemon;

import io.jsalt.cli.ConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The command line both daemons share (Salt's: {@code -c}, {@code -l}, {@code -d}, {@code --pid-file}). */
public final class DaemonOptions {
    @Option(names = {"-c", "--config-dir"}, defaultValue = ConfigLoader.DEFAULT_DIR,
            description = "Folder holding the config file (default: ${DEFAULT-VALUE}).")
    Path configDir;

    @Option(names = {"-l", "--log-level"},
            description = "Overrides log_level and log_level_logfile: debug, info, warning, error, ...")
    String logLevel;

    @Option(names = {"-d", "--daemon"},
            description = "Detach: return once the daemon is up (pid file written), leaving it in its own session.")
    boolean daemon;

    @Option(names = "--pid-file", paramLabel = "PATH", description = "The locked pid file (default: the config's pidfile).")
    Path pidFile;

    /** Set on the re-executed JVM of {@code -d}: no console, log start-up failures to the log file. */
    @Option(names = "--detached-child", hidden = true)
    boolean detachedChild;

    public Path configDir() {
        return configDir.toAbsolutePath().normalize();
    }

    public String logLevel() {
        return logLevel;
    }

    /** The parent of {@code -d}: it checks, starts the child and waits for it. */
    public boolean detach() {
        return daemon && !detachedChild;
    }

    public boolean detachedChild() {
        return detachedChild;
    }

    /** The pid file: {@code --pid-file}, else the config's. */
    public Path pidFile(Path fromConfig) {
        return (pidFile != null ? pidFile : fromConfig).toAbsolutePath().normalize();
    }

    /**
     * The child's arguments: these options minus {@code -d}, with absolute paths (the child runs in
     * {@code /}) and the pid file the parent waits for.
     */
    List<String> childArgs(Path resolvedPidFile) {
        List<String> args = new ArrayList<>(List.of("-c", configDir().toString()));
        if (logLevel != null) {
            args.addAll(List.of("-l", logLevel));
        }
        args.addAll(List.of("--pid-file", resolvedPidFile.toString(), "--detached-child"));
        return args;
    }
}
