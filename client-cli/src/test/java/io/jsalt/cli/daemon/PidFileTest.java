package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PidFileTest {
    private static final long ME = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    @Test
    void writesThePidReadableByAllAndLeavesNoTemporaryFile() throws Exception {
        Path path = dir.resolve("run/jsalt-master.pid");
        try (PidFile pid = PidFile.acquire(path, ME)) {
            assertThat(pid.path()).isEqualTo(path);
            assertThat(Files.readString(path)).isEqualTo(ME + "\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-r--r--");
            try (Stream<Path> files = Files.list(path.getParent())) {
                assertThat(files).containsExactly(path);
            }
        }
    }

    @Test
    void closeRemovesTheFileAndLetsTheNextOwnerTakeIt() {
        Path path = dir.resolve("p.pid");
        PidFile.acquire(path, ME).close();
        assertThat(path).doesNotExist();

        try (PidFile again = PidFile.acquire(path, ME)) {
            assertThat(path).hasContent(Long.toString(ME));
        }
    }

    @Test
    void aSecondAcquireIsRefusedWithTheHoldersPid() {
        Path path = dir.resolve("p.pid");
        try (PidFile first = PidFile.acquire(path, ME)) {
            assertThatThrownBy(() -> PidFile.acquire(path, 4242))
                    .isInstanceOfSatisfying(PidFile.AlreadyRunningException.class, e -> assertThat(e.pid()).isEqualTo(ME));
            assertThat(path).hasContent(Long.toString(ME));
        }
    }

    @Test
    void aStaleFileWithADeadPidIsReplaced() throws Exception {
        Path path = dir.resolve("p.pid");
        Files.writeString(path, "999999999\n");
        assertThat(PidFile.lockedBy(path)).isEmpty();

        try (PidFile pid = PidFile.acquire(path, ME)) {
            assertThat(path).hasContent(Long.toString(ME));
        }
    }

    @Test
    void aStaleFileWithGarbageIsReplaced() throws Exception {
        Path path = dir.resolve("p.pid");
        Files.writeString(path, "not a pid");

        try (PidFile pid = PidFile.acquire(path, ME)) {
            assertThat(path).hasContent(Long.toString(ME));
        }
    }

    @Test
    void closeLeavesAFileThatIsNoLongerOurs() throws Exception {
        Path path = dir.resolve("p.pid");
        PidFile pid = PidFile.acquire(path, ME);
        Files.delete(path);
        Files.writeString(path, "12345\n");

        pid.close();

        assertThat(path).hasContent("12345");
    }

    @Test
    void lockedByIsEmptyForAMissingFile() {
        assertThat(PidFile.lockedBy(dir.resolve("none.pid"))).isEmpty();
    }

    @Test
    void anotherProcessHoldingTheFileIsSeenAndRefusesUsUntilItDies() throws Exception {
        Path path = dir.resolve("held.pid");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), PidFileHolder.class.getName(), path.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");

            assertThat(PidFile.lockedBy(path)).contains(holder.pid());
            assertThatThrownBy(() -> PidFile.acquire(path, ME))
                    .isInstanceOfSatisfying(PidFile.AlreadyRunningException.class, e -> assertThat(e.pid()).isEqualTo(holder.pid()));

            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
            try (PidFile mine = PidFile.acquire(path, ME)) {
                assertThat(path).hasContent(Long.toString(ME));
            }
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void aHolderKilledHardLeavesAStaleFileThatIsReplaced() throws Exception {
        Path path = dir.resolve("killed.pid");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), PidFileHolder.class.getName(), path.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            holder.destroyForcibly();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(path).hasContent(Long.toString(holder.pid()));

            try (PidFile mine = PidFile.acquire(path, ME)) {
                assertThat(path).hasContent(Long.toString(ME));
            }
        } finally {
            holder.destroyForcibly();
        }
    }
}
