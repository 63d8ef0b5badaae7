package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/jsalt-env's bound on the CDS archive folder (~/.cache/jsalt), run by bash as the launchers run it: the
 * oldest archives go once there are too many or they take too much room; the one just written always stays.
 */
class CdsArchiveBoundsTest {
    /** client-cli/ is the working directory of its tests; bin/ is beside it. */
    private static final Path JSALT_ENV = Path.of("..", "bin", "jsalt-env").toAbsolutePath();
    private static final int MB = 1 << 20;

    @TempDir
    Path cache;

    /** An archive of {@code mb} megabytes (sparse: no disk is used), last written {@code minutesAgo}. */
    private Path archive(String name, int mb, int minutesAgo) throws IOException {
        Path p = cache.resolve(name);
        try (var f = new java.io.RandomAccessFile(p.toFile(), "rw")) {
            f.setLength((long) mb * MB);
        }
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(60L * minutesAgo)));
        return p;
    }

    private void prune(Path keep, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source \"$1\" && jsalt_prune_archives \"$2\" \"$3\"", "bash",
                JSALT_ENV.toString(), cache.toString(), keep.toString());
        pb.environment().remove("JSALT_CDS_MAX_ARCHIVES");
        pb.environment().remove("JSALT_CDS_MAX_MB");
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).isEmpty();
    }

    private Stream<String> left() throws IOException {
        return Files.list(cache).map(f -> f.getFileName().toString()).sorted();
    }

    @Test
    void beyondTheCountTheOldestArchivesGoAndOtherFilesStay() throws Exception {
        for (int i = 1; i <= 5; i++) {
            archive("Tool" + i + "-1.jsa", 1, 10 * i); // Tool1 newest, Tool5 oldest
        }
        Files.writeString(cache.resolve("notes.txt"), "mine");
        Files.writeString(cache.resolve("Tool9-1.jsa.123.tmp"), "being written");
        Path written = archive("Tool6-1.jsa", 1, 100); // just written, even if its time is old

        prune(written, Map.of("JSALT_CDS_MAX_ARCHIVES", "3"));

        assertThat(left()).containsExactly("Tool1-1.jsa", "Tool2-1.jsa", "Tool6-1.jsa", "Tool9-1.jsa.123.tmp", "notes.txt");
    }

    @Test
    void beyondTheSizeTheOldestArchivesGo() throws Exception {
        archive("A-1.jsa", 20, 1);
        archive("B-1.jsa", 20, 2);
        archive("C-1.jsa", 20, 3);
        Path written = archive("D-1.jsa", 20, 0);

        prune(written, Map.of("JSALT_CDS_MAX_MB", "50"));

        assertThat(left()).containsExactly("A-1.jsa", "D-1.jsa");
    }

    @Test
    void theDefaultsKeepEightArchivesOfTwoHundredMegabytes() throws Exception {
        for (int i = 1; i <= 10; i++) {
            archive("T" + i + "-1.jsa", 20, i);
        }
        Path written = archive("New-1.jsa", 20, 0);

        prune(written, Map.of());

        // 200 MB hold 10 archives of 20 MB, but 8 is the count: the newest 7 besides the one written
        assertThat(left()).containsExactly("New-1.jsa", "T1-1.jsa", "T2-1.jsa", "T3-1.jsa", "T4-1.jsa", "T5-1.jsa", "T6-1.jsa", "T7-1.jsa");
    }
}
