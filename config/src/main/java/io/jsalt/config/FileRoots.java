package io.jsalt.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code file_roots} (and {@code pillar_roots}, which has the same shape): each saltenv names the folders read,
 * in order. A configured folder is taken as written (normalized), never placed under root_dir: Salt's
 * {@code prepend_root_dir} prefixes pki_dir, cachedir, sock_dir, pidfile, log files and the like, never these two.
 * The default of {@code file_roots} is Salt's {@code base: [/srv/salt]} moved to jsalt's name, {@code /srv/jsalt};
 * that of {@code pillar_roots} is Salt's {@code base: [/srv/pillar]}. Unlike Salt, a default is placed under
 * root_dir, so a sandboxed daemon (tests, the quick start) never reads the host's /srv; with root_dir / it is the same.
 */
final class FileRoots {
    private static final String EXPECTED = "a mapping of saltenv names to lists of absolute folders";

    private FileRoots() {
    }

    static Map<String, List<Path>> read(ConfigFile config, Path root) {
        return read(config, root, "file_roots", "/srv/jsalt");
    }

    /** The roots under {@code key}, or {@code base: [dflt]} when the key is absent or empty. */
    static Map<String, List<Path>> read(ConfigFile config, Path root, String key, String dflt) {
        Map<String, Object> raw;
        try {
            raw = config.map(key);
        } catch (ConfigException e) {
            throw config.refuse(key, EXPECTED);
        }
        if (raw.isEmpty()) {
            return Map.of("base", List.of(RootDir.resolve(root, dflt)));
        }
        Map<String, List<Path>> roots = new LinkedHashMap<>();
        raw.forEach((saltenv, folders) -> roots.put(saltenv, folders(config, root, key, folders)));
        return roots;
    }

    private static List<Path> folders(ConfigFile config, Path root, String key, Object value) {
        Collection<?> items = value instanceof Collection<?> c ? c : value == null ? List.of() : List.of(value);
        List<Path> folders = new ArrayList<>();
        for (Object item : items) {
            if (!(item instanceof String s) || !s.startsWith("/")) {
                throw config.refuse(key, EXPECTED);
            }
            folders.add(asWritten(config, key, s));
        }
        return List.copyOf(folders);
    }

    private static Path asWritten(ConfigFile config, String key, String folder) {
        try {
            return Path.of(folder).normalize();
        } catch (InvalidPathException e) {
            throw config.refuse(key, EXPECTED);
        }
    }
}
