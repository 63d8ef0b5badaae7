package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The last lines of a log file, read from its end: a log of gigabytes costs only the bytes shown. */
final class LogTail {
    /** At most this much is read, whatever {@code lines} asks. */
    static final int MAX_BYTES = 1024 * 1024;

    private LogTail() {
    }

    static String lastLines(Path file, int lines) throws IOException {
        return lastLines(file, lines, Long.MAX_VALUE);
    }

    /** The last lines before byte {@code before} (or the end, if sooner). */
    static String lastLines(Path file, int lines, long before) throws IOException {
        if (lines <= 0 || !Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long end = Math.min(before, in.length());
            long start = end;
            int newlines = 0;
            byte[] one = new byte[4096];
            // a final newline ends the last line; it does not start another
            long scanEnd = end;
            while (start > 0 && end - start < MAX_BYTES) {
                int n = (int) Math.min(one.length, start);
                start -= n;
                in.seek(start);
                in.readFully(one, 0, n);
                for (int i = n - 1; i >= 0; i--) {
                    long at = start + i;
                    if (one[i] == '\n' && at != scanEnd - 1) {
                        newlines++;
                        if (newlines == lines) {
                            start = at + 1;
                            return read(in, start, end);
                        }
                    }
                }
            }
            return read(in, Math.max(start, end - MAX_BYTES), end);
        }
    }

    private static String read(RandomAccessFile in, long from, long to) throws IOException {
        byte[] bytes = new byte[(int) (to - from)];
        in.seek(from);
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
