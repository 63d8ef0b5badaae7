package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.DaemonConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The daemon's log file through logback itself: levels, reopen after a move, size rotation. */
class LoggingTest {
    private static final Logger log = LoggerFactory.getLogger(LoggingTest.class);

    @TempDir
    Path dir;

    @AfterEach
    void backToTheCliSetup() {
        Logging.forCli();
    }

    private Logging.Settings settings(Path file, String level, long rotateBytes, int backups) {
        return new Logging.Settings(file, null, level, DaemonConfig.DEFAULT_LOG_FMT, rotateBytes, backups);
    }

    @Test
    void applyChangesTheFileLevel() throws Exception {
        Path file = dir.resolve("log/master");
        Logging logging = Logging.forDaemon(settings(file, "info", 0, 0));
        log.debug("hidden line");
        log.info("shown line");

        logging.apply(settings(file, "debug", 0, 0));
        log.debug("now shown");

        assertThat(Files.readString(file)).contains("shown line", "[DEBUG]", "now shown").doesNotContain("hidden line");
    }

    @Test
    void theFilePatternIsLogFmtLogfile() throws Exception {
        Path file = dir.resolve("m");
        Logging.forDaemon(new Logging.Settings(file, null, "info", "PLAIN %level %msg%n", 0, 0));
        log.info("hello");

        assertThat(Files.readString(file)).isEqualTo("PLAIN INFO hello\n");
    }

    @Test
    void reopenAfterAMoveWritesANewFile() throws Exception {
        Path file = dir.resolve("minion");
        Logging logging = Logging.forDaemon(settings(file, "info", 0, 0));
        log.info("before the move");
        Path moved = dir.resolve("minion.1");
        Files.move(file, moved);

        logging.reopen();
        log.info("after the reopen");

        assertThat(Files.readString(file)).contains("after the reopen").doesNotContain("before the move");
        assertThat(Files.readString(moved)).contains("before the move").doesNotContain("after the reopen");
    }

    @Test
    void aFileBeyondLogRotateMaxBytesIsRotated() {
        Path file = dir.resolve("master");
        Logging.forDaemon(settings(file, "info", 2_000, 2));
        String line = "x".repeat(200);

        await().atMost(Duration.ofSeconds(20)).until(() -> {
            log.info(line);
            return Files.exists(dir.resolve("master.1"));
        });
        assertThat(dir.resolve("master.3")).doesNotExist();
    }

    @Test
    void auditLinesGoToTheAuditFileWhateverTheLevelsAndOnlyThere() throws Exception {
        Path file = dir.resolve("api");
        Path audit = dir.resolve("log/api-audit");
        Logger auditLog = LoggerFactory.getLogger(Logging.AUDIT_LOGGER);
        Logging logging = Logging.forDaemon(new Logging.Settings(file, null, "warning", DaemonConfig.DEFAULT_LOG_FMT, 0, 0, audit));
        auditLog.info("user=alice action=login outcome=ok");
        log.warn("an ordinary warning");

        assertThat(Files.readString(audit)).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z user=alice action=login outcome=ok\n");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(audit))).isEqualTo("rw-------");
        // the log file keeps its level: the INFO audit line is not there, the warning is
        assertThat(Files.readString(file)).contains("an ordinary warning").doesNotContain("alice");

        Path moved = dir.resolve("log/api-audit.1");
        Files.move(audit, moved);
        // logrotate's "create 0644" makes the new file readable by all: the reopen makes it the operator's again
        Files.createFile(audit, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--")));
        logging.reopen();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(audit))).isEqualTo("rw-------");
        auditLog.info("user=bob action=logout outcome=ok");
        assertThat(Files.readString(audit)).contains("bob").doesNotContain("alice");
        assertThat(Files.readString(moved)).contains("alice").doesNotContain("bob");
    }

    @Test
    void auditLinesStayOutOfTheLogFileAtAnyLevelAndALinkIsRefused() throws Exception {
        Path file = dir.resolve("api");
        Path audit = dir.resolve("api-audit");
        Logging.forDaemon(new Logging.Settings(file, null, "debug", DaemonConfig.DEFAULT_LOG_FMT, 0, 0, audit));
        LoggerFactory.getLogger(Logging.AUDIT_LOGGER).info("user=alice action=login outcome=ok");
        log.info("an ordinary line");
        assertThat(Files.readString(file)).contains("an ordinary line").doesNotContain("alice");
        assertThat(Files.readString(audit)).contains("alice");

        Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "");
        Path link = Files.createSymbolicLink(dir.resolve("linked-audit"), elsewhere);
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                Logging.forDaemon(new Logging.Settings(file, null, "info", DaemonConfig.DEFAULT_LOG_FMT, 0, 0, link)))
                .isInstanceOf(CliException.class).hasMessageContaining("not a plain file");
        assertThat(Files.readString(elsewhere)).isEmpty();
    }

    @Test
    void withoutAnAuditFileTheAuditLoggerFollowsTheLogLevels() throws Exception {
        Path file = dir.resolve("master");
        Logging.forDaemon(settings(file, "warning", 0, 0));
        LoggerFactory.getLogger(Logging.AUDIT_LOGGER).info("user=alice action=login outcome=ok");
        log.warn("a warning");

        assertThat(Files.readString(file)).contains("a warning").doesNotContain("alice");
    }
}
