package io.jsalt.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code file_roots}: each saltenv names the folders the master's file server reads, in order. Each folder is
 * placed under root_dir like every other path; the default is Salt's {@code base: [/srv/salt]} moved to
 * jsalt's name, {@code /srv/jsalt}.
 */
final class FileRoots {
    private static final String EXPECTED = "a mapping of saltenv names to lists of absolute folders";

    private FileRoots() {
    }

    static Map<String, List<Path>> read(ConfigFile config, Path root) {
        Map<String, Object> raw;
        try {
            raw = config.map("file_roots");
        } catch (ConfigException e) {
            throw config.refuse("file_roots", EXPECTED);
        }
        if (raw.isEmpty()) {
            return Map.of("base", List.of(RootDir.resolve(root, "/srv/jsalt")));
        }
        Map<String, List<Path>> roots = new LinkedHashMap<>();
        raw.forEach((saltenv, folders) -> roots.put(saltenv, folders(config, root, folders)));
        return roots;
    }

    private static List<Path> folders(ConfigFile config, Path root, Object value) {
        Collection<?> items = value instanceof Collection<?> c ? c : value == null ? List.of() : List.of(value);
        List<Path> folders = new ArrayList<>();
        for (Object item : items) {
            if (!(item instanceof String s) || !s.startsWith("/")) {
                throw config.refuse("file_roots", EXPECTED);
            }
            folders.add(RootDir.resolve(root, s));
        }
        return List.copyOf(folders);
    }
}
