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
 * is itself a symlink is fine. A path to write ({@link #writable}) follows the same rule for its folders and
 * may not end in a symlink at all.
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

    /**
     * Where to write the file {@code wirePath} names under {@code root} (the wheel's {@code file_roots.write}):
     * the root and the missing folders on the way are created, each folder, symlinks resolved, must lie inside
     * the root's real path, and the file itself may be absent or a regular file, never a symlink. Open the
     * answer with {@link java.nio.file.LinkOption#NOFOLLOW_LINKS}, so a symlink put there since is not followed.
     *
     * @throws UnsafePathException when the path's form is refused or it leads outside the root; nothing is
     *                             created then
     * @throws IOException         when a folder cannot be created
     */
    public static Path writable(Path root, String wirePath) throws IOException {
        List<String> segments = WirePath.segments(wirePath);
        Files.createDirectories(root);
        Path realRoot = root.toRealPath();
        Path folder = realRoot;
        for (String segment : segments.subList(0, segments.size() - 1)) {
            Path next = folder.resolve(segment);
            if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(next); // inside a folder already proved to be in the root
            }
            Path real = next.toRealPath();
            if (!real.startsWith(realRoot)) {
                throw new UnsafePathException("path leads outside its file root through a symlink");
            }
            if (!Files.isDirectory(real)) {
                throw new UnsafePathException("'" + segment + "' on the path is a file, not a folder");
            }
            folder = real;
        }
        Path file = folder.resolve(segments.get(segments.size() - 1));
        if (Files.isSymbolicLink(file)) {
            throw new UnsafePathException("the path is a symlink: it is not written through");
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new UnsafePathException("the path exists and is not a regular file");
        }
        return file;
    }
}
