package io.jsalt.modules.builtin.cmd;

import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * What {@code cmd.*} writes to the minion's log about a command, at the caller's {@link OutputLogLevel}, with
 * Salt's wording. A failed command (non-zero exit, {@code ignore_retcode} not set) is logged at ERROR with its
 * output raised to ERROR too, as Salt's cmdmod does; {@code quiet} silences even that.
 */
public final class CommandLog {

    private static final Logger LOG = LoggerFactory.getLogger(CommandLog.class);

    private CommandLog() {
    }

    /** Logs the command before it starts. */
    public static void started(OutputLogLevel level, List<String> argv, String runas, Path cwd) {
        level.level().ifPresent(l -> LOG.atLevel(l).log("Executing command {}{} in directory '{}'", argv,
                runas == null ? "" : " as user '" + runas + "'", cwd));
    }

    /** Logs a command that could not be started. */
    static void notStarted(Level level, String reason) {
        LOG.atLevel(level).log("{}", reason);
    }

    /** Logs what the command printed and how it ended. */
    public static void finished(OutputLogLevel level, List<String> argv, CommandOutcome outcome,
                                boolean ignoreRetcode) {
        OutputLogLevel effective = level;
        if (!ignoreRetcode && outcome.exitCode() != 0) {
            effective = level.atLeast(OutputLogLevel.ERROR);
            effective.level().ifPresent(l -> LOG.error("Command {} failed with return code: {}", argv,
                    outcome.exitCode()));
        }
        effective.level().ifPresent(l -> {
            log(l, "stdout", outcome.stdout());
            log(l, "stderr", outcome.stderr());
            if (outcome.exitCode() != 0) {
                LOG.atLevel(l).log("retcode: {}", outcome.exitCode());
            }
        });
    }

    private static void log(Level level, String stream, String text) {
        String shown = text.stripTrailing();
        if (!shown.isEmpty()) {
            LOG.atLevel(level).log("{}: {}", stream, shown);
        }
    }
}
