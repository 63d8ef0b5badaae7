package io.jsalt.modules.builtin;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.cmd.CommandLaunchException;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.cmd.CommandRunner;
import io.jsalt.modules.builtin.cmd.CommandSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a system tool (systemctl, apt-get, dpkg-query) for a module, as argv and never through a shell,
 * with {@code cmd}'s {@link CommandRunner}, so a job kill or timeout kills it too. A tool that cannot be
 * started or overruns its time becomes a {@link CommandExecutionException} naming it.
 */
public final class ExternalTool {

    private static final Logger LOG = LoggerFactory.getLogger(ExternalTool.class);

    private ExternalTool() {
    }

    /** Runs {@code argv} with extra environment variables; stdout and stderr are kept apart. */
    public static CommandOutcome run(List<String> argv, Map<String, String> env, Duration timeout) {
        return run(argv, env, timeout, true);
    }

    /**
     * As {@link #run(List, Map, Duration)}; with {@code inheritEnv} false the tool sees {@code env} alone, not the
     * minion's environment (as {@code service} starts init scripts with {@code env -i}).
     */
    public static CommandOutcome run(List<String> argv, Map<String, String> env, Duration timeout, boolean inheritEnv) {
        LOG.debug("running {}", argv);
        CommandSpec spec = new CommandSpec(argv, Path.of("/"), env, null, timeout, false, CommandSpec.DEFAULT_MAX_BYTES,
                inheritEnv);
        try {
            CommandOutcome outcome = CommandRunner.run(spec);
            if (outcome.timedOut()) {
                throw new CommandExecutionException(String.join(" ", argv) + " timed out after "
                        + timeout.toSeconds() + " s and was killed");
            }
            return outcome;
        } catch (CommandLaunchException e) {
            throw new CommandExecutionException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted; " + argv.get(0) + " was killed", e);
        }
    }

    /** The tool's own complaint, or its exit code when it said nothing. */
    public static String complaint(CommandOutcome outcome) {
        String stderr = outcome.stderr().strip();
        if (!stderr.isEmpty()) {
            return stderr;
        }
        String stdout = outcome.stdout().strip();
        return stdout.isEmpty() ? "exit code " + outcome.exitCode() : stdout;
    }
}
