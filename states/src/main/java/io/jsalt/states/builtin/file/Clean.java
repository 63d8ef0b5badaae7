package io.jsalt.states.builtin.file;

import io.jsalt.modules.builtin.file.DirectoryTree;
import io.jsalt.states.compile.StateChunk;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code clean: True} of {@code file.directory} and {@code file.recurse}: what is kept (Salt's
 * {@code _gen_keep_files}: the files and folders of the {@code file} states this one requires) and what goes
 * (Salt's {@code _clean_dir}: everything else under the folder that {@code exclude_pat} does not protect).
 */
final class Clean {
    private Clean() {
    }

    /**
     * Salt's {@code _gen_keep_files}: a required file state's name; for a required folder under {@code name}, the
     * folder and everything in it, or for a {@code file.recurse} what it manages.
     *
     * @param recurseKeep what a required {@code file.recurse} chunk manages
     */
    static Set<Path> keepOfRequired(Path name, List<StateChunk> required, Function<StateChunk, Set<Path>> recurseKeep)
            throws IOException {
        Set<Path> keep = new HashSet<>();
        for (StateChunk chunk : required) {
            if (!chunk.state().equals("file")) {
                continue;
            }
            Path fn = Path.of(chunk.name()).toAbsolutePath().normalize();
            if (!Files.isDirectory(fn)) {
                keep.add(fn);
            } else if (fn.startsWith(name)) {
                if (chunk.fun().equals("recurse")) {
                    keep.addAll(recurseKeep.apply(chunk));
                } else {
                    keep.add(fn);
                    for (Walk w : Walk.of(fn)) {
                        w.dirs().forEach(d -> keep.add(w.root().resolve(d)));
                        w.files().forEach(f -> keep.add(w.root().resolve(f)));
                    }
                }
            }
        }
        return keep;
    }

    /** Salt's {@code _find_keep_files}: the kept paths, every folder above them, and the root. */
    static Set<Path> withParents(Path root, Set<Path> keep) {
        Set<Path> real = new HashSet<>();
        real.add(root);
        for (Path p : keep) {
            for (Path q = p; q != null; q = q.getParent()) {
                real.add(q);
            }
        }
        return real;
    }

    /**
     * Salt's {@code _clean_dir}: removes (unless {@code test}) what is under {@code root}, neither kept nor
     * excluded, top-down; a removed folder is not looked into, as os.walk then finds it gone.
     *
     * @return the paths removed (or that would be), sorted
     */
    static List<String> clean(Path root, Set<Path> keep, Object excludePat, boolean test) throws IOException {
        Set<Path> real = withParents(root, keep);
        List<String> removed = new ArrayList<>();
        clean(root, root, real, excludePat, test, removed);
        removed.sort(null);
        return removed;
    }

    private static void clean(Path root, Path dir, Set<Path> keep, Object excludePat, boolean test, List<String> removed)
            throws IOException {
        List<Path> dirs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                (Files.isDirectory(entry) ? dirs : files).add(entry);
            }
        } catch (IOException e) {
            return; // gone (removed above) or unreadable: os.walk skips it
        }
        dirs.sort(null);
        files.sort(null);
        List<Path> all = new ArrayList<>(dirs);
        all.addAll(files);
        for (Path p : all) {
            if (keep.contains(p) || !IncludeExclude.check(root.relativize(p).toString(), null, excludePat)) {
                continue;
            }
            removed.add(p.toString());
            if (!test) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    DirectoryTree.delete(p);
                } else {
                    Files.deleteIfExists(p);
                }
            }
        }
        for (Path sub : dirs) {
            if (!Files.isSymbolicLink(sub)) {
                clean(root, sub, keep, excludePat, test, removed);
            }
        }
    }
}
