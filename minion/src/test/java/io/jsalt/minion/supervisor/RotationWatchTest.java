package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log is looked at every tick while it grows, less and less often while it does not. */
class RotationWatchTest {
    @TempDir
    Path dir;
    private final RotationWatch watch = new RotationWatch();

    private void append(Path file, int bytes) throws Exception {
        Files.write(file, new byte[bytes], StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aGrowingLogIsRotatedAtTheNextTick() throws Exception {
        Path log = dir.resolve("app.log");
        ProgramConfig.LogSettings settings = new ProgramConfig.LogSettings(log, 1000, 2);
        for (int i = 0; i < 5; i++) {
            append(log, 100);
            watch.tick(settings);
        }
        append(log, 1000);
        watch.tick(settings);

        assertThat(Files.size(log)).isZero();
        assertThat(Files.size(OutputLog.backup(log, 1))).isEqualTo(1500);
    }

    @Test
    void anIdleLogIsLookedAtLessOftenUntilItGrowsAgain() throws Exception {
        Path log = dir.resolve("idle.log");
        ProgramConfig.LogSettings settings = new ProgramConfig.LogSettings(log, 1000, 1);
        append(log, 10);
        for (int i = 0; i < 60; i++) {
            watch.tick(settings); // unchanged: the looks back off to one every 30 ticks
        }
        append(log, 2000);
        int ticks = 0;
        while (Files.size(log) > 0) {
            watch.tick(settings);
            ticks++;
            assertThat(ticks).as("rotated within the longest pause").isLessThanOrEqualTo(RotationWatch.MAX_SECONDS);
        }
        assertThat(ticks).as("not looked at every tick while it was idle").isGreaterThan(1);

        // growing again: looked at each tick
        append(log, 1500);
        watch.tick(settings);
        assertThat(Files.size(log)).isZero();
    }

    @Test
    void aLogNearItsMaxbytesIsLookedAtEveryTickEvenWhenIdle() throws Exception {
        Path log = dir.resolve("near.log");
        ProgramConfig.LogSettings settings = new ProgramConfig.LogSettings(log, 1000, 1);
        append(log, 600); // past half its maxbytes
        for (int i = 0; i < 40; i++) {
            watch.tick(settings);
        }
        append(log, 500);
        watch.tick(settings);
        assertThat(Files.size(log)).isZero();
        watch.retain(Set.of());
    }
}
