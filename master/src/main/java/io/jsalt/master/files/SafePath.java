package io.jsalt.master.files;

import io.jsalt.transport.message.UnsafePathException;
import io.jsalt.transport.message.WirePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The one place a path from the wire is joined to a file root. Its form is {@link WirePath}'s, shared with
 * the minion's file cache. The file it names, with every symlink resolved, must be a regular file inside
 * the root's own real path: a symlink inside the root that points outside is refused, while a root that
 * is itself a symlink is fine.
 */
public final class SafePath {
    private SafePath() {
    }

    /**
     * The real path of the regular file {@code wirePath} names under {@code root}, or empty when the root or
     * the file does not exist or is not a regular file.
     *
     * @throws UnsafePathException when the path's form is refused or the file, symlinks resolved, lies
     *                             outside the root
     */
    public static Optional<Path> join(Path root, String wirePath) {
        List<String> segments = WirePath.segments(wirePath);
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return Optional.empty(); // a configured root that does not exist holds nothing
        }
        Path joined = realRoot;
        for (String segment : segments) {
            joined = joined.resolve(segment);
        }
        Path real;
        try {
            real = joined.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!real.startsWith(realRoot)) {
            throw new UnsafePathException("path leads outside its file root through a symlink");
        }
        return Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS) ? Optional.of(real) : Optional.empty();
    }
}
