package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a log gained after a byte offset, for {@code supervisor.tail -f} from the master: each call answers the bytes
 * after {@code offset} (at most {@value #MAX_CHUNK}, cut at a line end when there is one), waiting a bounded time for
 * some when there are none yet, and the offset to ask from next. A log rotated since (copy and truncate: it is now
 * shorter than the offset) is read again from its start.
 */
final class LogFollow {
    static final int MAX_CHUNK = 64 * 1024;
    /** How often a waiting call looks at the file's size: only while someone follows it. */
    private static final Duration LOOK = Duration.ofMillis(200);
    /**
     * A waiting step that sees output keeps gathering for up to this long from its start (unless its chunk is full):
     * each step is a job in the master's job cache, so a program that writes a line every few milliseconds costs
     * a job a second, not one per line.
     */
    static final Duration GATHER = Duration.ofSeconds(1);

    /** @param rotated the log was cut since the offset: {@code data} is from its new start */
    record Chunk(String data, long offset, boolean rotated) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("data", data);
            m.put("offset", offset);
            m.put("rotated", rotated);
            return m;
        }
    }

    private LogFollow() {
    }

    /** The last {@code lines} lines and the offset of the log's end: where following starts. */
    static Chunk start(Path file, int lines) throws IOException {
        long size = size(file);
        return new Chunk(LogTail.lastLines(file, lines, size), size, false);
    }

    /** What follows {@code offset}, waiting up to {@code wait} for something to follow it. */
    static Chunk after(Path file, long offset, Duration wait) throws IOException, InterruptedException {
        Instant start = Instant.now();
        Instant until = start.plus(wait);
        Instant gathered = start.plus(GATHER.compareTo(wait) < 0 ? GATHER : wait);
        while (true) {
            long size = size(file);
            boolean rotated = size < offset;
            long from = rotated ? 0 : offset;
            if (size > from) {
                if (size - from < MAX_CHUNK && Instant.now().isBefore(gathered)) {
                    Thread.sleep(LOOK.toMillis()); // more of the same burst may come: one step for it
                    continue;
                }
                return read(file, from, size, rotated);
            }
            if (rotated || !Instant.now().isBefore(until)) {
                return new Chunk("", from, rotated);
            }
            Thread.sleep(LOOK.toMillis());
        }
    }

    private static long size(Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0; // not written yet
        }
    }

    private static Chunk read(Path file, long from, long size, boolean rotated) throws IOException {
        int length = (int) Math.min(MAX_CHUNK, size - from);
        byte[] bytes = new byte[length];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(from);
            length = in.read(bytes, 0, length);
        }
        if (length <= 0) {
            return new Chunk("", from, rotated); // cut meanwhile
        }
        int end = length;
        if (length == MAX_CHUNK) {
            end = cut(bytes, length);
        }
        return new Chunk(new String(bytes, 0, end, StandardCharsets.UTF_8), from + end, rotated);
    }

    /** A full chunk ends after its last line end, or else before a UTF-8 sequence it would split. */
    private static int cut(byte[] bytes, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        int end = length;
        while (end > 0 && (bytes[end - 1] & 0xC0) == 0x80) {
            end--; // continuation bytes
        }
        if (end > 0 && (bytes[end - 1] & 0x80) != 0) {
            end--; // the lead byte of the split sequence
        }
        return end == 0 ? length : end;
    }
}
