package io.jsalt.minion.files;

import io.jsalt.transport.message.UnsafePathException;
import io.jsalt.transport.message.WirePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The one place a file path from the master (or from a {@code salt://} URL) becomes a local path: under
 * {@code cachedir/files/<saltenv>/}, in {@link WirePath}'s form (shared with the master's file server)
 * and, once the folders exist, still inside the cache with symbolic links resolved.
 */
public final class CachePath {
    private static final Pattern SALTENV = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");

    private CachePath() {
    }

    /** Checks a relative '/'-separated path from the wire; returns it unchanged. */
    public static String requireRelative(String path) {
        return WirePath.check(path);
    }

    public static String requireSaltenv(String saltenv) {
        if (saltenv == null || !SALTENV.matcher(saltenv).matches()) {
            throw new UnsafePathException("not a saltenv name: " + WirePath.shown(String.valueOf(saltenv)));
        }
        return saltenv;
    }

    /**
     * {@code root/<path>}, checked lexically and, after creating its parent folders, against the real path
     * of {@code root}, so a symbolic link planted in the cache cannot lead a write outside it.
     */
    public static Path resolveForWrite(Path root, String path) throws IOException {
        requireRelative(path);
        Path base = root.toAbsolutePath().normalize();
        Path target = base.resolve(path).normalize();
        if (!target.startsWith(base) || target.equals(base)) {
            throw new UnsafePathException("path outside the cache: " + WirePath.shown(path));
        }
        Files.createDirectories(target.getParent());
        Path realBase = base.toRealPath();
        Path realParent = target.getParent().toRealPath();
        if (!realParent.startsWith(realBase)) {
            throw new UnsafePathException("path leads outside the cache through a link: " + WirePath.shown(path));
        }
        Path real = realParent.resolve(target.getFileName());
        if (Files.isSymbolicLink(real) || (Files.exists(real, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS))) {
            throw new UnsafePathException("not a regular file in the cache: " + WirePath.shown(path));
        }
        return real;
    }
}
