package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon's pid file: a decimal pid on its first line, as daemons write it. Only a file that the minion's
 * own user, root or the program's {@code user} owns, and that nobody else may write, is believed: the process it names is stopped and
 * killed as the program's, so a pid written by another user (sshd's, say) must never be taken.
 */
final class PidFile {
    private static final Logger log = LoggerFactory.getLogger(PidFile.class);

    /** More than this is not a pid file. */
    private static final long MAX_BYTES = 64;

    private PidFile() {
    }

    /** The pid the file names, empty when it is missing, unreadable, or does not hold a pid above 1. */
    static OptionalLong read(Path file) {
        return read(file, null);
    }

    /**
     * {@link #read(Path)}, also believing a file of the program's {@code user} (null: the minion's own); the pid
     * such a file names must be a process of that user: the user cannot make the minion signal anyone else's.
     */
    static OptionalLong read(Path file, RunAs user) {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_BYTES) {
                return OptionalLong.empty();
            }
            String owner = trustedOwner(file, user);
            if (owner == null) {
                return OptionalLong.empty();
            }
            String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).strip();
            int end = text.indexOf('\n');
            long pid = Long.parseLong(end < 0 ? text : text.substring(0, end).strip());
            if (pid <= 1) {
                return OptionalLong.empty();
            }
            boolean byProgramUser = user != null && owner.equals(user.name()) && !owner.equals("root")
                    && !owner.equals(System.getProperty("user.name"));
            if (byProgramUser && CommandLines.uidOf(pid).orElse(-1) != user.uid()) {
                log.warn("pidfile {} of {} names pid {}, which is not {}'s: not believed", file, owner, pid, owner);
                return OptionalLong.empty();
            }
            return OptionalLong.of(pid);
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The file's owner when it is believed (the minion's user, root, or the program's user; no one else may write it). */
    private static String trustedOwner(Path file, RunAs user) throws IOException {
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String owner = a.owner().getName();
        boolean ownedByUs = owner.equals("root") || owner.equals(System.getProperty("user.name"))
                || (user != null && owner.equals(user.name()));
        boolean othersWrite = a.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || a.permissions().contains(PosixFilePermission.OTHERS_WRITE);
        if (!ownedByUs || othersWrite) {
            log.warn("pidfile {} is not believed: owned by {} with mode {} (it must be the minion's user's, root's or the "
                    + "program's user's, writable by its owner only)", file, owner,
                    java.nio.file.attribute.PosixFilePermissions.toString(a.permissions()));
            return null;
        }
        return owner;
    }
}
