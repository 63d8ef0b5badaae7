package io.jsalt.modules.builtin.system;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A logged-in user as the utmp file records it (glibc's 384-byte {@code struct utmp}, little-endian),
 * which is what {@code who} and {@code w} read.
 */
public record LoginSession(String user, String tty, String host, long pid, long loginEpochSeconds) {

    static final int RECORD_SIZE = 384;
    private static final short USER_PROCESS = 7;

    /** The sessions in a utmp file; a missing file (containers, minimal systems) means nobody is logged in. */
    public static List<LoginSession> read(Path utmp) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(utmp);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new io.jsalt.modules.api.CommandExecutionException("Unable to read " + utmp + ": " + e.getMessage(), e);
        }
        return parse(bytes);
    }

    static List<LoginSession> parse(byte[] bytes) {
        List<LoginSession> sessions = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int offset = 0; offset + RECORD_SIZE <= bytes.length; offset += RECORD_SIZE) {
            if (buffer.getShort(offset) != USER_PROCESS) {
                continue;
            }
            long pid = buffer.getInt(offset + 4);
            String tty = text(bytes, offset + 8, 32);
            String user = text(bytes, offset + 44, 32);
            String host = text(bytes, offset + 76, 256);
            long seconds = Integer.toUnsignedLong(buffer.getInt(offset + 340));
            sessions.add(new LoginSession(user, tty, host, pid, seconds));
        }
        return sessions;
    }

    private static String text(byte[] bytes, int from, int length) {
        int end = from;
        while (end < from + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.UTF_8);
    }
}
