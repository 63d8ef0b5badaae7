package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** A daemon's pid file: a decimal pid on its first line, as daemons write it. */
final class PidFile {
    /** More than this is not a pid file. */
    private static final long MAX_BYTES = 64;

    private PidFile() {
    }

    /** The pid the file names, empty when it is missing, unreadable, or does not hold a pid above 1. */
    static OptionalLong read(Path file) {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
                return OptionalLong.empty();
            }
            String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).strip();
            int end = text.indexOf('\n');
            long pid = Long.parseLong(end < 0 ? text : text.substring(0, end).strip());
            return pid > 1 ? OptionalLong.of(pid) : OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
