package io.jsalt.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Salt's {@code prepend_root_dir}: every configured path lives under {@code root_dir}, so a whole daemon
 * can run in a sandbox folder (tests, the quick start) with the stock paths in its file. The check is
 * lexical (no symbolic links are followed): a path whose ".." segments climb out of the root is refused,
 * which Salt does not do.
 */
public final class RootDir {
    /** Stands for the file in messages when a path is resolved outside any config file. */
    private static final Path NO_FILE = Path.of("<root_dir>");

    private RootDir() {
    }

    /**
     * The {@code root_dir} of a config (default "/"), made absolute against the current directory.
     */
    public static Path of(ConfigFile config) {
        String configured = config.string("root_dir", "/");
        try {
            if (configured.isBlank()) {
                throw new ConfigException(config.file(), "root_dir", "an absolute or relative path", configured);
            }
            return Path.of(configured).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(config.file(), "root_dir", "a valid path", configured);
        }
    }

    /**
     * {@code configured} placed under {@code rootDir} and normalized: relative paths are resolved against the
     * root, absolute paths outside it are prefixed with it ({@code /tmp/sb} + {@code /etc/jsalt/pki/master} →
     * {@code /tmp/sb/etc/jsalt/pki/master}), absolute paths already under it are kept; with root {@code /}
     * an absolute path is returned as is.
     */
    public static Path resolve(Path rootDir, String configured) {
        return resolve(NO_FILE, "path", rootDir, configured);
    }

    /** As {@link #resolve(Path, String)}, naming {@code key} and the config's file when refusing. */
    public static Path resolve(ConfigFile config, String key, Path rootDir, String configured) {
        return resolve(config.file(), key, rootDir, configured);
    }

    static Path resolve(Path file, String key, Path rootDir, String configured) {
        Objects.requireNonNull(rootDir, "rootDir");
        Path root = rootDir.toAbsolutePath().normalize();
        if (configured == null || configured.isBlank()) {
            throw new ConfigException(file, key, "a path", configured);
        }
        Path path;
        try {
            path = Path.of(configured);
        } catch (InvalidPathException e) {
            throw new ConfigException(file, key, "a valid path", configured);
        }
        Path placed;
        if (!path.isAbsolute()) {
            placed = root.resolve(path);
        } else if (root.equals(root.getRoot()) || path.startsWith(root)) {
            // startsWith compares whole names: /tmp/sbx is not under /tmp/sb
            placed = path;
        } else if (path.getNameCount() == 0) {
            placed = root;
        } else {
            // subpath drops the leading "/" without normalizing, unlike relativize: the ".." check needs them
            placed = root.resolve(path.subpath(0, path.getNameCount()));
        }
        Path normalized = placed.normalize();
        if (!normalized.startsWith(root)) {
            throw new ConfigException(file, key, "a path that stays inside root_dir " + root,
                    configured);
        }
        return normalized;
    }
}
