package io.jsalt.minion.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salt's proc folder: one private msgpack record per running job, and a job's own deadline. */
class ProcRecordsTest {
    @TempDir
    Path dir;

    @Test
    void writesAPrivateRecordThatReadsBackAndIsRemoved() throws Exception {
        ProcRecords records = new ProcRecords(dir.resolve("proc"));

        assertThat(records.write("20260101000000000001", Map.of("jid", "20260101000000000001", "pid", 42L, "child_pids", List.of(7L))))
                .isTrue();

        assertThat(records.read("20260101000000000001")).containsEntry("pid", 42L).containsEntry("child_pids", List.of(7L));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("proc/20260101000000000001"))))
                .isEqualTo("rw-------");
        records.remove("20260101000000000001");
        assertThat(records.read("20260101000000000001")).isNull();
    }

    @Test
    void aRewrittenRecordLeavesNoTemporaryFileAndAFolderRemovedMeanwhileIsMadeAgain() throws Exception {
        ProcRecords records = new ProcRecords(dir.resolve("proc"));
        records.write("20260101000000000001", Map.of("pid", 1L));
        records.write("20260101000000000001", Map.of("pid", 2L)); // a child started: the record is rewritten

        try (var files = Files.list(dir.resolve("proc"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("20260101000000000001");
        }
        assertThat(records.read("20260101000000000001")).containsEntry("pid", 2L);
        records.remove("20260101000000000001");
        Files.delete(dir.resolve("proc"));

        assertThat(records.write("20260101000000000002", Map.of("pid", 3L))).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("proc")))).isEqualTo("rwx------");
        assertThat(records.read("20260101000000000002")).containsEntry("pid", 3L);
    }

    @Test
    void aRecordIsNeverWrittenThroughASymbolicLinkPlantedAtItsTemporaryName() throws Exception {
        ProcRecords records = new ProcRecords(dir.resolve("proc"));
        records.write("20260101000000000001", Map.of("pid", 1L));
        Path target = Files.writeString(dir.resolve("elsewhere"), "untouched");
        Files.createSymbolicLink(dir.resolve("proc/.20260101000000000003." + Thread.currentThread().getId() + ".tmp"), target);

        assertThat(records.write("20260101000000000003", Map.of("pid", 3L))).isFalse();

        assertThat(Files.readString(target)).isEqualTo("untouched");
    }

    @Test
    void aJidThatCannotNameAFileGetsNoRecord() {
        ProcRecords records = new ProcRecords(dir.resolve("proc"));

        assertThat(records.write("../escape", Map.of())).isFalse();
        assertThat(records.write(".hidden", Map.of())).isFalse();
        assertThat(dir.resolve("escape")).doesNotExist();
    }

    @Test
    void atStartRecordsOfAGoneProcessAreRemovedAndThoseOfALiveOneKept() {
        ProcRecords records = new ProcRecords(dir.resolve("proc"));
        records.write("20260101000000000001", Map.of("pid", ProcessHandle.current().pid()));
        records.write("20260101000000000002", Map.of("pid", Long.MAX_VALUE));

        new RunningJobs(records, "web-1").close();

        assertThat(records.read("20260101000000000001")).isNotNull();
        assertThat(records.read("20260101000000000002")).isNull();
    }

    @Test
    void aJobsDeadlineIsAPositiveNumberOfSecondsAtTheTopOfTheLoadOrInItsKwargs() {
        assertThat(JobTimeout.of(Map.of("timeout", 2))).isEqualTo(Duration.ofSeconds(2));
        assertThat(JobTimeout.of(Map.of("timeout", "0.5"))).isEqualTo(Duration.ofMillis(500));
        assertThat(JobTimeout.of(Map.of("kwargs", Map.of("timeout", 3.0)))).isEqualTo(Duration.ofSeconds(3));
        assertThat(JobTimeout.of(Map.of("timeout", 0))).isNull();
        assertThat(JobTimeout.of(Map.of("timeout", -1))).isNull();
        assertThat(JobTimeout.of(Map.of("timeout", "soon"))).isNull();
        assertThat(JobTimeout.of(Map.of())).isNull();
    }
}
