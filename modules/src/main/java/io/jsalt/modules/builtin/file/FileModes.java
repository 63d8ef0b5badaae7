package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/** File modes as Salt writes them ("0644", "4755") and as Unix stores them (an int with the special bits). */
public final class FileModes {

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    private FileModes() {
    }

    /** The permission bits (with setuid, setgid, sticky) of a path, not following a final link. */
    public static int of(Path path, LinkOption... options) throws IOException {
        return ((Integer) Files.getAttribute(path, "unix:mode", options)) & 07777;
    }

    /** Salt's normalize_mode: four octal digits at least, e.g. "0644". */
    public static String format(int mode) {
        String octal = Integer.toOctalString(mode & 07777);
        return octal.length() >= 4 ? octal : "0".repeat(4 - octal.length()) + octal;
    }

    /** Parses a mode given as "0644", "644", "0o644" or 644 (the digits of an int are read as octal, like Salt). */
    public static int parse(Object mode) {
        String text = String.valueOf(mode).strip();
        if (text.startsWith("0o") || text.startsWith("0O")) {
            text = text.substring(2);
        }
        if (!text.matches("[0-7]{1,4}")) {
            throw new CommandExecutionException("Invalid mode '" + mode + "': expected octal digits such as 0644");
        }
        return Integer.parseInt(text, 8);
    }

    /** Sets the mode; special bits need chmod(2), which Java's NIO does not expose, so they go through chmod(1). */
    public static void apply(Path path, int mode) throws IOException {
        if ((mode & 07000) == 0) {
            Files.setPosixFilePermissions(path, permissions(mode));
            return;
        }
        try {
            Process chmod = new ProcessBuilder("chmod", Integer.toOctalString(mode), "--", path.toString())
                    .redirectErrorStream(true).start();
            String output = new String(chmod.getInputStream().readAllBytes()).strip();
            if (chmod.waitFor() != 0) {
                throw new IOException("chmod failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while setting the mode of " + path, e);
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                set.add(BITS[bit]);
            }
        }
        return set;
    }
}
