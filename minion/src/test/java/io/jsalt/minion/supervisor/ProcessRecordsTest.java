package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state file and the /proc start times it relies on. */
class ProcessRecordsTest {
    @TempDir
    Path dir;

    @Test
    void writesAndReadsBackTheProcessesIn0600() throws Exception {
        ProcessRecords records = new ProcessRecords(dir.resolve("sv").resolve("processes"));
        ProcessRecords.Entry app = new ProcessRecords.Entry("app", 4242, 123456, 1_795_000_000_000L, 2, "TERM", "abc");
        ProcessRecords.Entry web = new ProcessRecords.Entry("web_01", 4343, 7, 1_795_000_000_001L, 0, "QUIT", "def");

        records.write(List.of(app, web));

        assertThat(records.read()).containsExactly(java.util.Map.entry("app", app), java.util.Map.entry("web_01", web));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(records.file()))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(records.file().getParent()))).isEqualTo("rwx------");
        records.write(List.of());
        assertThat(records.read()).isEmpty();
    }

    @Test
    void skipsLinesThatDoNotParseAndDistrustsAFileOthersCanWrite() throws Exception {
        Path file = dir.resolve("processes");
        Files.writeString(file, """
                app 4242 1 2 0 TERM abc
                ../etc 4242 1 2 0 TERM abc
                init 1 1 2 0 TERM abc
                bad 4242 x 2 0 TERM abc
                sig 4242 1 2 0 STOP abc
                short 4242 1
                """);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(new ProcessRecords(file).read()).containsOnlyKeys("app");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(new ProcessRecords(file).read()).isEmpty();
    }

    @Test
    void theStartTimeOfAProcessIsItsOwnAndGoneWithIt() throws Exception {
        Process child = new ProcessBuilder("sleep", "1000").start();
        try {
            long ticks = ProcStart.of(child.pid()).orElseThrow();
            assertThat(ProcStart.isSame(child.pid(), ticks)).isTrue();
            assertThat(ProcStart.isSame(child.pid(), ticks + 1)).isFalse();
            assertThat(ProcStart.of(ProcessHandle.current().pid()).orElseThrow()).isLessThanOrEqualTo(ticks);
        } finally {
            child.destroyForcibly().waitFor();
        }
        assertThat(ProcStart.of(child.pid())).isEmpty();
        assertThat(ProcStart.of(0)).isEmpty();
    }

    @Test
    void theLaunchDigestChangesWithTheCommandAndNotWithTheRetrySettings() {
        ProgramConfig app = ProgramConfig.of("app", "sleep 1000");
        assertThat(ProcessRecords.launch(app)).isEqualTo(ProcessRecords.launch(ProgramConfig.of("app", "sleep 1000")));
        assertThat(ProcessRecords.launch(app)).isNotEqualTo(ProcessRecords.launch(ProgramConfig.of("app", "sleep 1001")));
    }
}
