package io.jsalt.modules.builtin.system;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.cmd.CommandLaunchException;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.cmd.CommandRunner;
import io.jsalt.modules.builtin.cmd.CommandSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs a system tool for the few facts neither /proc nor the JDK give (inode counts, ICMP echo, signals
 * other than TERM and KILL), with the C locale so its output parses, and a time limit.
 */
public final class SystemCommand {

    private SystemCommand() {
    }

    /** Runs argv; a missing program becomes a clear error naming it. */
    public static CommandOutcome run(List<String> argv, Duration timeout) {
        CommandSpec spec = new CommandSpec(argv, Path.of("/"), Map.of("LC_ALL", "C"), null, timeout, false,
                CommandSpec.DEFAULT_MAX_BYTES);
        try {
            return CommandRunner.run(spec);
        } catch (CommandLaunchException e) {
            throw new CommandExecutionException("'" + argv.get(0) + "' is not available on this minion: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted while running " + argv.get(0), e);
        }
    }
}
