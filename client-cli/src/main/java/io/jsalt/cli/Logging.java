package io.jsalt.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import org.slf4j.LoggerFactory;

/**
 * Configures logback in code. The CLI tools log warnings only, to stderr ({@link #forCli}). A daemon logs
 * to {@code log_file} at {@code log_level_logfile} with {@code log_fmt_logfile}, rotated by size when
 * {@code log_rotate_max_bytes} is set, and to stderr at {@code log_level} while in the foreground
 * ({@link #forDaemon}); the instance it returns applies new settings (SIGHUP) and reopens the file
 * (SIGUSR2, after logrotate moved it away). Only the daemon's main loop calls those. A daemon with an audit file
 * ({@code jsalt-api}) also writes every line of the {@code jsalt.audit} logger there, whatever the levels.
 */
public final class Logging {
    /** A daemon's console pattern; the file's is {@code log_fmt_logfile}. */
    private static final String CONSOLE_PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%-5level] [%thread] %logger{24}: %msg%n";
    /** A tool's warnings need no time stamp (and a date pattern costs a tool tens of ms of start-up). */
    private static final String CLI_PATTERN = "%-5level %logger{24}: %msg%n";
    /** FixedWindowRollingPolicy keeps at most this many rotated files, whatever it is told. */
    private static final int MAX_BACKUPS = 20;
    /** The logger {@code io.jsalt.api.AuditLog} writes to. */
    static final String AUDIT_LOGGER = "jsalt.audit";
    private static final String AUDIT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX, UTC} %msg%n";

    /**
     * What a daemon logs where.
     *
     * @param logFile        {@code log_file}
     * @param consoleLevel   Salt level name for stderr, or null for no console (a detached daemon)
     * @param fileLevel      Salt level name for the file ({@code log_level_logfile})
     * @param filePattern    logback pattern of the file ({@code log_fmt_logfile})
     * @param rotateMaxBytes rotate the file at this size; 0 never ({@code log_rotate_max_bytes})
     * @param rotateBackups  rotated files kept ({@code log_rotate_backup_count}); 0 never rotates, as Python's handler
     * @param auditFile      where the audit lines go (created 0600), or null for a daemon without one
     */
    public record Settings(Path logFile, String consoleLevel, String fileLevel, String filePattern,
            long rotateMaxBytes, int rotateBackups, Path auditFile) {
        public Settings {
            Objects.requireNonNull(logFile, "logFile");
            Objects.requireNonNull(fileLevel, "fileLevel");
            Objects.requireNonNull(filePattern, "filePattern");
        }

        public Settings(Path logFile, String consoleLevel, String fileLevel, String filePattern, long rotateMaxBytes,
                int rotateBackups) {
            this(logFile, consoleLevel, fileLevel, filePattern, rotateMaxBytes, rotateBackups, null);
        }

        boolean rotates() {
            return rotateMaxBytes > 0 && rotateBackups > 0;
        }
    }

    private final LoggerContext ctx;
    private Settings settings;
    private Appender<ILoggingEvent> file;
    private Appender<ILoggingEvent> console;
    private Appender<ILoggingEvent> audit;
    /** Appender names must differ while an old and a new one overlap during a swap. */
    private int generation;

    private Logging(LoggerContext ctx) {
        this.ctx = ctx;
    }

    /** A tool's logging: logback's set-up for tools, or nothing when a tool runs with {@link ToolLogProvider}. */
    public static void forCli() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext) {
            configureCli(reset());
        }
    }

    /** Warnings and worse to stderr: every tool's set-up, and logback's own at start (see {@link StartupLogConfigurator}). */
    static void configureCli(LoggerContext ctx) {
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(stderr(ctx, "stderr", null, CLI_PATTERN));
        root.setLevel(Level.WARN);
    }

    /** Replaces whatever logging was set up with the daemon's; the result applies later changes. */
    public static Logging forDaemon(Settings settings) {
        Logging logging = new Logging(reset());
        // JeroMQ and logback chatter is not the operator's business below WARN
        logging.ctx.getLogger("org.zeromq").setLevel(Level.WARN);
        logging.apply(settings);
        return logging;
    }

    public synchronized Settings settings() {
        return settings;
    }

    /** Applies new settings (levels, pattern, file, rotation): the new appenders start before the old ones stop. */
    public synchronized void apply(Settings next) {
        settings = next;
        root().setLevel(mostVerbose(next));
        if (next.consoleLevel() == null) {
            console = swap(console, null);
        } else {
            console = swap(console, stderr(ctx, "stderr-" + (++generation), next.consoleLevel(), CONSOLE_PATTERN));
        }
        file = swap(file, fileAppender(next));
        audit = swapAudit(audit, next.auditFile() == null ? null : auditAppender(next.auditFile()));
    }

    /** Opens {@code log_file} (and the audit file) again by name: after a rename, new files receive what follows. */
    public synchronized void reopen() {
        file = swap(file, fileAppender(settings));
        audit = swapAudit(audit, settings.auditFile() == null ? null : auditAppender(settings.auditFile()));
    }

    /** Salt's level names mapped onto logback's. */
    static Level toLevel(String saltLevel) {
        return switch (saltLevel == null ? "warning" : saltLevel.toLowerCase()) {
            case "all", "garbage", "trace" -> Level.TRACE;
            case "debug", "profile" -> Level.DEBUG;
            case "info" -> Level.INFO;
            case "error", "critical" -> Level.ERROR;
            case "quiet" -> Level.OFF;
            default -> Level.WARN;
        };
    }

    private ch.qos.logback.classic.Logger root() {
        return ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private static Level mostVerbose(Settings s) {
        Level fileLevel = toLevel(s.fileLevel());
        if (s.consoleLevel() == null) {
            return fileLevel;
        }
        Level consoleLevel = toLevel(s.consoleLevel());
        return consoleLevel.toInt() < fileLevel.toInt() ? consoleLevel : fileLevel;
    }

    private Appender<ILoggingEvent> swap(Appender<ILoggingEvent> old, Appender<ILoggingEvent> replacement) {
        if (replacement != null) {
            root().addAppender(replacement);
        }
        if (old != null) {
            root().detachAppender(old);
            old.stop();
        }
        return replacement;
    }

    /**
     * With an audit file, the audit logger logs at INFO whatever the root's level, and there only (not in the log
     * file, which may be readable by more than the operator).
     */
    private Appender<ILoggingEvent> swapAudit(Appender<ILoggingEvent> old, Appender<ILoggingEvent> replacement) {
        ch.qos.logback.classic.Logger logger = ctx.getLogger(AUDIT_LOGGER);
        logger.setLevel(replacement == null ? null : Level.INFO);
        logger.setAdditive(replacement == null);
        if (replacement != null) {
            logger.addAppender(replacement);
        }
        if (old != null) {
            logger.detachAppender(old);
            old.stop();
        }
        return replacement;
    }

    private Appender<ILoggingEvent> auditAppender(Path path) {
        try {
            if (Files.notExists(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(path.toAbsolutePath().getParent());
                // who did what is for the operator's eyes only, as the keys are
                Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new CliException(ExitCode.CONFIG, "the audit file " + path + " is not a plain file (a link?): refused");
            } else {
                // made again by logrotate, or by hand: whatever mode it got, it is the operator's alone
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.CONFIG, "cannot create the audit file " + path + ": " + e.getMessage());
        }
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(ctx);
        appender.setFile(path.toString());
        appender.setName("audit-" + (++generation));
        appender.setEncoder(encoder(ctx, AUDIT_PATTERN));
        appender.start();
        if (!appender.isStarted()) {
            throw new CliException(ExitCode.CONFIG, "cannot open the audit file " + path);
        }
        return appender;
    }

    private Appender<ILoggingEvent> fileAppender(Settings s) {
        String name = "file-" + (++generation);
        OutputStreamAppender<ILoggingEvent> appender;
        if (s.rotates()) {
            RollingFileAppender<ILoggingEvent> rolling = new RollingFileAppender<>();
            rolling.setContext(ctx);
            rolling.setFile(s.logFile().toString());
            FixedWindowRollingPolicy window = new FixedWindowRollingPolicy();
            window.setContext(ctx);
            window.setParent(rolling);
            window.setFileNamePattern(s.logFile() + ".%i");
            window.setMinIndex(1);
            window.setMaxIndex(Math.min(s.rotateBackups(), MAX_BACKUPS));
            window.start();
            SizeBasedTriggeringPolicy<ILoggingEvent> size = new SizeBasedTriggeringPolicy<>();
            size.setContext(ctx);
            size.setMaxFileSize(new FileSize(s.rotateMaxBytes()));
            // logback looks at the size once a minute by default: a busy daemon could overshoot by far
            size.setCheckIncrement(ch.qos.logback.core.util.Duration.buildBySeconds(1));
            size.start();
            rolling.setRollingPolicy(window);
            rolling.setTriggeringPolicy(size);
            appender = rolling;
        } else {
            FileAppender<ILoggingEvent> plain = new FileAppender<>();
            plain.setContext(ctx);
            plain.setFile(s.logFile().toString());
            appender = plain;
        }
        appender.setName(name);
        appender.setEncoder(encoder(ctx, s.filePattern()));
        appender.addFilter(threshold(ctx, s.fileLevel()));
        appender.start();
        if (!appender.isStarted()) {
            throw new CliException(ExitCode.CONFIG, "cannot open the log file " + s.logFile());
        }
        return appender;
    }

    private static LoggerContext reset() {
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ctx.reset();
        return ctx;
    }

    private static ConsoleAppender<ILoggingEvent> stderr(LoggerContext ctx, String name, String level, String pattern) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(ctx);
        console.setName(name);
        console.setTarget("System.err");
        console.setEncoder(encoder(ctx, pattern));
        if (level != null) {
            console.addFilter(threshold(ctx, level));
        }
        console.start();
        return console;
    }

    private static ThresholdFilter threshold(LoggerContext ctx, String saltLevel) {
        ThresholdFilter filter = new ThresholdFilter();
        filter.setContext(ctx);
        filter.setLevel(toLevel(saltLevel).toString());
        filter.start();
        return filter;
    }

    private static PatternLayoutEncoder encoder(LoggerContext ctx, String pattern) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern(pattern);
        enc.start();
        return enc;
    }
}
