package io.jsalt.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Configures logback in code, once per process: daemons log to {@code log_file} (and to stderr in the
 * foreground) at {@code log_level}; the CLI tools log warnings only, to stderr.
 */
public final class Logging {
    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%-5level] [%thread] %logger{24}: %msg%n";

    private Logging() {}

    public static void forCli() {
        LoggerContext ctx = reset();
        ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(stderr(ctx));
        ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    }

    public static void forDaemon(Path logFile, String saltLevel, boolean alsoStderr) {
        LoggerContext ctx = reset();
        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(toLevel(saltLevel));
        if (logFile != null) {
            try {
                Files.createDirectories(logFile.getParent());
            } catch (java.io.IOException e) {
                throw new CliException(ExitCode.CONFIG, "cannot create the log folder " + logFile.getParent() + ": " + e.getMessage());
            }
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setContext(ctx);
            file.setName("file");
            file.setFile(logFile.toString());
            file.setEncoder(encoder(ctx));
            file.start();
            root.addAppender(file);
        }
        if (alsoStderr) {
            root.addAppender(stderr(ctx));
        }
        // JeroMQ and logback chatter is not the operator's business below WARN
        ctx.getLogger("org.zeromq").setLevel(Level.WARN);
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

    private static LoggerContext reset() {
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ctx.reset();
        return ctx;
    }

    private static ConsoleAppender<ILoggingEvent> stderr(LoggerContext ctx) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(ctx);
        console.setName("stderr");
        console.setTarget("System.err");
        console.setEncoder(encoder(ctx));
        console.start();
        return console;
    }

    private static PatternLayoutEncoder encoder(LoggerContext ctx) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern(PATTERN);
        enc.start();
        return enc;
    }
}
