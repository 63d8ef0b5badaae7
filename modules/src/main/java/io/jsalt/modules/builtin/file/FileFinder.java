package io.jsalt.modules.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The part of Salt's {@code file.find} (itself modelled on find(1)) that jsalt supports: a name test,
 * a type test ({@code f}, {@code d}, {@code l}, combinable as {@code fd}) and depth limits. The walk
 * never follows symbolic links, and unreadable directories are skipped as find(1) skips them.
 */
public final class FileFinder {

    /** The file types find's {@code type} letters name. */
    public enum Kind { FILE, DIRECTORY, LINK }

    /**
     * @param name     tests the entry's file name, or null for any name
     * @param kinds    the types to report; empty means every type
     * @param minDepth the shallowest depth reported (the start path is depth 0)
     * @param maxDepth the deepest depth visited
     */
    public record Criteria(Predicate<String> name, Set<Kind> kinds, int minDepth, int maxDepth) {
    }

    private FileFinder() {
    }

    /** Parses find's type letters. */
    public static Set<Kind> kinds(String letters) {
        Set<Kind> kinds = EnumSet.noneOf(Kind.class);
        if (letters == null) {
            return kinds;
        }
        for (char letter : letters.toCharArray()) {
            kinds.add(switch (letter) {
                case 'f' -> Kind.FILE;
                case 'd' -> Kind.DIRECTORY;
                case 'l' -> Kind.LINK;
                default -> throw new CommandExecutionException("Unsupported find type '" + letter
                        + "': jsalt's file.find supports f, d and l");
            });
        }
        return kinds;
    }

    /** Every path under {@code start} (and {@code start} itself) meeting the criteria, sorted. */
    public static List<String> find(Path start, Criteria criteria) throws IOException {
        List<String> found = new ArrayList<>();
        Files.walkFileTree(start, EnumSet.noneOf(java.nio.file.FileVisitOption.class), criteria.maxDepth(),
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        consider(dir, attrs);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        consider(file, attrs);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;
                    }

                    private void consider(Path path, BasicFileAttributes attrs) {
                        int depth = start.relativize(path).toString().isEmpty() ? 0 : start.relativize(path).getNameCount();
                        if (depth < criteria.minDepth()) {
                            return;
                        }
                        if (!criteria.kinds().isEmpty() && !criteria.kinds().contains(kind(attrs))) {
                            return;
                        }
                        Path fileName = path.getFileName();
                        String name = fileName == null ? path.toString() : fileName.toString();
                        if (criteria.name() == null || criteria.name().test(name)) {
                            found.add(path.toString());
                        }
                    }
                });
        found.sort(null);
        return found;
    }

    private static Kind kind(BasicFileAttributes attrs) {
        if (attrs.isSymbolicLink()) {
            return Kind.LINK;
        }
        return attrs.isDirectory() ? Kind.DIRECTORY : Kind.FILE;
    }
}
