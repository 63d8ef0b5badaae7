package io.jsalt.modules.builtin.cmd;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.event.Level;

/**
 * Salt's {@code output_loglevel}: the level at which {@code cmd.*} logs the command it runs and what the command
 * printed. {@code quiet} logs nothing at all (for commands whose output is secret).
 */
public enum OutputLogLevel {
    QUIET(null),
    TRACE(Level.TRACE),
    DEBUG(Level.DEBUG),
    INFO(Level.INFO),
    WARNING(Level.WARN),
    ERROR(Level.ERROR);

    /** Salt's default for every cmd function. */
    public static final String DEFAULT = "debug";

    private final Level level;

    OutputLogLevel(Level level) {
        this.level = level;
    }

    /** The slf4j level, or empty for {@link #QUIET}. */
    public Optional<Level> level() {
        return Optional.ofNullable(level);
    }

    /**
     * Salt's level names; the ones slf4j has no level for map to the nearest (garbage and all are below trace,
     * profile sits between trace and debug, critical is error).
     *
     * @throws CommandExecutionException naming the accepted names
     */
    public static OutputLogLevel parse(String name) {
        String key = name == null ? DEFAULT : name.strip().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "quiet" -> QUIET;
            case "all", "garbage", "trace", "profile" -> TRACE;
            case "debug" -> DEBUG;
            case "info" -> INFO;
            case "warning", "warn" -> WARNING;
            case "error", "critical" -> ERROR;
            default -> throw new CommandExecutionException("Invalid output_loglevel '" + name + "': expected one of "
                    + "quiet, all, garbage, trace, profile, debug, info, warning, error, critical");
        };
    }

    /** The higher of this level and {@code other}; quiet stays quiet. */
    OutputLogLevel atLeast(OutputLogLevel other) {
        if (this == QUIET) {
            return QUIET;
        }
        return ordinal() >= other.ordinal() ? this : other;
    }
}
