package io.jsalt.states.builtin.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code os.walk(top)} as Salt's folder states use it: top-down, each folder's sub-folders (symbolic links
 * to folders among them, not followed) and its other entries; names sorted, where Python gives the folder's order.
 */
record Walk(Path root, List<String> dirs, List<String> files) {

    static List<Walk> of(Path top) throws IOException {
        Map<Path, Walk> out = new LinkedHashMap<>();
        walk(top, out);
        return new ArrayList<>(out.values());
    }

    private static void walk(Path dir, Map<Path, Walk> out) throws IOException {
        List<String> dirs = new ArrayList<>();
        List<String> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                (Files.isDirectory(entry) ? dirs : files).add(entry.getFileName().toString());
            }
        } catch (IOException e) {
            return; // os.walk skips a folder it cannot read
        }
        dirs.sort(null);
        files.sort(null);
        out.put(dir, new Walk(dir, dirs, files));
        for (String name : dirs) {
            Path sub = dir.resolve(name);
            if (!Files.isSymbolicLink(sub)) {
                walk(sub, out);
            }
        }
    }

    /** Whether {@code p} is a folder and not a link (what os.walk descends into). */
    static boolean realDir(Path p) {
        return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
    }
}
