package io.jsalt.cli.daemon;

import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ToolRunner;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * The command line the daemons share (Salt's: {@code -c}, {@code -l}, {@code -d}, {@code --pid-file}). picocli
 * reads it (help, version, errors); {@link #plain} reads the usual start-up line without it, as picocli's
 * ~170 classes and its model cost a daemon ~3 MiB for the rest of its life (docs/BENCHMARKS.md, session 13).
 */
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

    /**
     * A daemon's {@code main}: its usual start-up line read by {@link #plain} and handed to {@code into}, anything
     * else read (and answered) by picocli; the daemon's exit code.
     */
    static int run(Callable<?> daemon, Consumer<DaemonOptions> into, PrintStream err, String... args) {
        Optional<DaemonOptions> read = plain(args);
        if (read.isEmpty()) {
            return ToolRunner.run(daemon, err, args);
        }
        into.accept(read.get());
        return ToolRunner.call(daemon, err);
    }

    /**
     * This command line as picocli reads it, when every word is one of these options written plainly ({@code -c
     * DIR}, {@code --config-dir DIR}, {@code --config-dir=DIR}, and so for the others) at most once, and no value
     * begins with {@code -}; empty for anything else (help, version, a mistake, clustered or attached short
     * options), which picocli then reads and answers. DaemonOptionsTest holds the two to the same result.
     */
    public static Optional<DaemonOptions> plain(String... args) {
        DaemonOptions o = new DaemonOptions();
        Set<String> seen = new HashSet<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String word = args[i];
                int eq = word.startsWith("--") ? word.indexOf('=') : -1;
                String name = eq < 0 ? word : word.substring(0, eq);
                String canonical = switch (name) {
                    case "-c", "--config-dir" -> "c";
                    case "-l", "--log-level" -> "l";
                    case "--pid-file" -> "pid";
                    case "-d", "--daemon" -> "d";
                    case "--detached-child" -> "child";
                    default -> null;
                };
                if (canonical == null || !seen.add(canonical) || (eq >= 0 && name.length() == 2)) {
                    return Optional.empty();
                }
                if (canonical.equals("d") || canonical.equals("child")) {
                    if (eq >= 0) {
                        return Optional.empty();
                    }
                    o.daemon |= canonical.equals("d");
                    o.detachedChild |= canonical.equals("child");
                    continue;
                }
                String value;
                if (eq >= 0) {
                    value = word.substring(eq + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    return Optional.empty();
                }
                if (value.startsWith("-")) {
                    return Optional.empty();
                }
                switch (canonical) {
                    case "c" -> o.configDir = Path.of(value);
                    case "l" -> o.logLevel = value;
                    default -> o.pidFile = Path.of(value);
                }
            }
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
        if (o.configDir == null) {
            o.configDir = Path.of(ConfigLoader.DEFAULT_DIR);
        }
        return Optional.of(o);
    }

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
