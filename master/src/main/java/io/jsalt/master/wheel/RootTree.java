package io.jsalt.master.wheel;

import io.jsalt.master.runner.RunnerException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files under one root folder as Salt's wheel {@code file_roots.list_env} nests them: a folder is a map of
 * its entries, a file is {@code "f"}. As Salt's {@code os.walk}, symlinks are not followed: one to a folder
 * shows as an empty folder, any other as a file. A tree of more than {@link #MAX_ENTRIES} entries is refused
 * rather than answered: the whole answer is held in memory and sent in one reply.
 */
final class RootTree {
    static final int MAX_ENTRIES = 100_000;

    private RootTree() {
    }

    /** The tree under {@code root}; an absent root is an empty folder, as Salt's walk of it yields nothing. */
    static Map<String, Object> of(Path root) {
        Map<String, Object> top = new LinkedHashMap<>();
        if (!Files.isDirectory(root)) {
            return top;
        }
        Deque<Map<String, Object>> open = new ArrayDeque<>();
        int[] entries = {0};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (dir.equals(root)) {
                        open.push(top);
                        return FileVisitResult.CONTINUE;
                    }
                    Map<String, Object> folder = new LinkedHashMap<>();
                    add(dir, folder);
                    open.push(folder);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    add(file, attrs.isSymbolicLink() && Files.isDirectory(file) ? new LinkedHashMap<>() : "f");
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // unreadable: left out, as os.walk leaves it
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                    open.pop();
                    return FileVisitResult.CONTINUE;
                }

                private void add(Path entry, Object value) {
                    if (++entries[0] > MAX_ENTRIES) {
                        throw new TooMany();
                    }
                    open.peek().put(entry.getFileName().toString(), value);
                }
            });
        } catch (TooMany e) {
            throw new RunnerException(root + " holds more than " + MAX_ENTRIES + " files and folders: too many to list");
        } catch (IOException e) {
            throw new RunnerException("cannot list " + root + ": " + e.getMessage());
        }
        return top;
    }

    private static final class TooMany extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooMany() {
            super(null, null, false, false);
        }
    }
}
