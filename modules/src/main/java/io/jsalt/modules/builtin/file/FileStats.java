package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/** Salt's {@code file.stats} dictionary: inode, uid, gid, user, group, atime, mtime, ctime, size, mode, type, target. */
public final class FileStats {

    private FileStats() {
    }

    /**
     * The stats of {@code path}, of the link itself when {@code followSymlinks} is false or the link
     * dangles.
     *
     * @throws CommandExecutionException with Salt's "Path not found: <path>" when nothing is there
     */
    public static Map<String, Object> of(Path path, boolean followSymlinks) throws IOException {
        LinkOption[] options = followSymlinks && Files.exists(path) ? new LinkOption[0]
                : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new CommandExecutionException("Path not found: " + path);
        }
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, options);
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("inode", ((Number) Files.getAttribute(path, "unix:ino", options)).longValue());
        stats.put("uid", Files.getAttribute(path, "unix:uid", options));
        stats.put("gid", Files.getAttribute(path, "unix:gid", options));
        stats.put("group", attributes.group().getName());
        stats.put("user", attributes.owner().getName());
        stats.put("atime", seconds(attributes.lastAccessTime()));
        stats.put("mtime", seconds(attributes.lastModifiedTime()));
        stats.put("ctime", seconds((FileTime) Files.getAttribute(path, "unix:ctime", options)));
        stats.put("size", attributes.size());
        int mode = (Integer) Files.getAttribute(path, "unix:mode", options);
        stats.put("mode", FileModes.format(mode));
        stats.put("type", type(mode));
        // Salt's target is os.path.realpath: where the path finally leads, or the path when that is nowhere
        stats.put("target", realPath(path));
        return stats;
    }

    /** Salt's names for the file type bits of st_mode (S_IFMT). */
    static String type(int mode) {
        return switch (mode & 0170000) {
            case 0040000 -> "dir";
            case 0020000 -> "char";
            case 0060000 -> "block";
            case 0120000 -> "link";
            case 0010000 -> "pipe";
            case 0140000 -> "socket";
            default -> "file";
        };
    }

    private static double seconds(FileTime time) {
        return time.toMillis() / 1000.0;
    }

    private static String realPath(Path path) {
        try {
            return path.toRealPath().toString();
        } catch (IOException e) {
            return path.toString();
        }
    }
}
