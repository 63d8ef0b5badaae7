package io.jsalt.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a daemon (master or minion) needs beyond its role: its pid file, how long a graceful stop may
 * take, and how its log file is written and rotated. The keys are Salt's where Salt has one.
 *
 * @param pidfile                 {@code pidfile}: the locked pid file
 * @param gracefulShutdownTimeout {@code graceful_shutdown_timeout}: seconds a TERM may take before a hard exit
 * @param logLevelLogfile         {@code log_level_logfile}: level of the log file (default: log_level)
 * @param logFmtLogfile           {@code log_fmt_logfile}: logback pattern of the log file
 * @param logRotateMaxBytes       {@code log_rotate_max_bytes}: rotate the log file at this size; 0 never
 * @param logRotateBackupCount    {@code log_rotate_backup_count}: rotated files kept
 */
public record DaemonConfig(Path pidfile, int gracefulShutdownTimeout, String logLevelLogfile, String logFmtLogfile,
        long logRotateMaxBytes, int logRotateBackupCount) {

    public static final String DEFAULT_LOG_FMT = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%-5level] [%thread] %logger{24}: %msg%n";

    public DaemonConfig {
        Objects.requireNonNull(pidfile, "pidfile");
        Objects.requireNonNull(logLevelLogfile, "logLevelLogfile");
        Objects.requireNonNull(logFmtLogfile, "logFmtLogfile");
    }

    /** @param defaultPidfile the pidfile when the key is absent, as written in a config (placed under root_dir) */
    static DaemonConfig read(ConfigFile config, Path root, String defaultPidfile, String logLevel) {
        return new DaemonConfig(
                config.path("pidfile", root, defaultPidfile),
                config.integer("graceful_shutdown_timeout", 10, 1, 3_600),
                LogLevel.read(config, "log_level_logfile", LogLevel.parse(logLevel).orElse(LogLevel.WARNING)).saltName(),
                logPattern(config),
                config.integer("log_rotate_max_bytes", 0, 0, Integer.MAX_VALUE),
                config.integer("log_rotate_backup_count", 5, 0, 1_000));
    }

    private static String logPattern(ConfigFile config) {
        String fmt = config.string("log_fmt_logfile", DEFAULT_LOG_FMT);
        if (fmt.contains("%(")) {
            throw config.refuse("log_fmt_logfile", "a logback pattern such as \"%d %-5level %logger: %msg%n\", not Python's %(name)s form");
        }
        if (fmt.isBlank() || !fmt.contains("%")) {
            throw config.refuse("log_fmt_logfile", "a logback pattern such as \"%d %-5level %logger: %msg%n\"");
        }
        return fmt;
    }
}
