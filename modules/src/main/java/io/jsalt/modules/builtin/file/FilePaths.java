package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The path rules every {@code file.*} function applies before touching the disk: paths are absolute
 * (a minion's working directory is nobody's business), and a symbolic link is only followed when the
 * caller asked for it.
 */
public final class FilePaths {

    private FilePaths() {
    }

    /** The path, which must be absolute; Salt's "File path must be absolute" otherwise. */
    public static Path absolute(String path) {
        if (path == null || path.isEmpty()) {
            throw new CommandExecutionException("File path must be absolute: " + path);
        }
        try {
            Path parsed = Path.of(path);
            if (parsed.isAbsolute()) {
                return parsed.normalize();
            }
        } catch (InvalidPathException e) {
            throw new CommandExecutionException("Invalid path " + path + ": " + e.getReason());
        }
        throw new CommandExecutionException("File path must be absolute: " + path);
    }

    /**
     * Refuses to modify {@code path} when it is a symbolic link, unless the caller passed
     * {@code follow_symlinks=True}; then the link's target is returned. Only the last component is
     * checked: the directories above it are the operator's layout, as for every Unix tool.
     */
    public static Path refuseSymlink(Path path, boolean followSymlinks, String function) {
        if (!Files.isSymbolicLink(path)) {
            return path;
        }
        if (!followSymlinks) {
            throw new CommandExecutionException(function + ": refusing to follow the symbolic link " + path
                    + " (pass follow_symlinks=True to act on its target)");
        }
        try {
            return path.toRealPath();
        } catch (java.io.IOException e) {
            throw new CommandExecutionException(function + ": cannot resolve the symbolic link " + path
                    + ": " + FileErrors.reason(e));
        }
    }

    /** Whether anything, even a dangling link, is at the path. */
    public static boolean occupied(Path path) {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }
}
