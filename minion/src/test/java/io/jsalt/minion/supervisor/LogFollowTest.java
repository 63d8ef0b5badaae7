package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Following a log by byte offsets: what it gained, in bounded chunks, across a rotation. */
class LogFollowTest {
    @TempDir
    Path dir;

    private Path append(Path file, String text) throws Exception {
        return Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void startsWithTheLastLinesThenGivesWhatTheLogGainsAfterTheOffset() throws Exception {
        Path log = append(dir.resolve("app.log"), "one\ntwo\nthree\n");

        LogFollow.Chunk start = LogFollow.start(log, 2);
        assertThat(start.data()).isEqualTo("two\nthree\n");
        assertThat(start.offset()).isEqualTo(14);

        assertThat(LogFollow.after(log, start.offset(), Duration.ZERO)).isEqualTo(new LogFollow.Chunk("", 14, false));
        append(log, "four\n");
        LogFollow.Chunk next = LogFollow.after(log, start.offset(), Duration.ZERO);
        assertThat(next).isEqualTo(new LogFollow.Chunk("four\n", 19, false));
    }

    @Test
    void aWaitingStepAnswersAsSoonAsTheLogGrows() throws Exception {
        Path log = append(dir.resolve("app.log"), "old\n");
        CompletableFuture<LogFollow.Chunk> step = CompletableFuture.supplyAsync(() -> {
            try {
                return LogFollow.after(log, 4, Duration.ofSeconds(30));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        append(log, "new\n");
        await().atMost(Duration.ofSeconds(20)).until(step::isDone);
        assertThat(step.get().data()).isEqualTo("new\n");
    }

    @Test
    void aRotatedLogIsReadAgainFromItsStart() throws Exception {
        Path log = append(dir.resolve("app.log"), "a long first line before the rotation\n");
        long offset = Files.size(log);
        try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
            c.truncate(0); // copytruncate
        }
        append(log, "after\n");

        assertThat(LogFollow.after(log, offset, Duration.ZERO)).isEqualTo(new LogFollow.Chunk("after\n", 6, true));
    }

    @Test
    void aLargeGainComesInChunksCutAtLineEnds() throws Exception {
        String line = "x".repeat(999) + "\n";
        Path log = append(dir.resolve("app.log"), line.repeat(200)); // 200 000 bytes

        StringBuilder read = new StringBuilder();
        long offset = 0;
        int steps = 0;
        while (offset < 200_000) {
            LogFollow.Chunk c = LogFollow.after(log, offset, Duration.ZERO);
            assertThat(c.data().length()).isLessThanOrEqualTo(LogFollow.MAX_CHUNK);
            assertThat(c.data()).endsWith("\n");
            read.append(c.data());
            offset = c.offset();
            steps++;
        }
        assertThat(steps).isEqualTo(4);
        assertThat(read.toString()).isEqualTo(line.repeat(200));
    }
}
