package io.jsalt.master.files;

import io.jsalt.transport.message.UnsafePathException;
import io.jsalt.transport.message.WirePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's roots file server over {@code file_roots}: each saltenv is a list of folders searched in order,
 * and the first folder holding a path serves it. Every path from the wire goes through {@link SafePath}.
 * An unknown saltenv holds no files. Hashes and listings are remembered ({@link FileServerMemo}) so
 * requests in a loop cost lookups, not disk reads. Thread-safe.
 */
public final class FileServer {
    private static final Logger log = LoggerFactory.getLogger(FileServer.class);
    static final String HASH_TYPE = "sha256";

    private final Supplier<Map<String, List<Path>>> fileRoots;
    private final IntSupplier bufferSize;
    private final FileServerMemo memo;

    /**
     * @param fileRoots  saltenv to its folders, read at each call (so a reload applies at once)
     * @param bufferSize the most bytes one {@link #read} gives ({@code file_buffer_size})
     */
    public FileServer(Supplier<Map<String, List<Path>>> fileRoots, IntSupplier bufferSize) {
        this(fileRoots, bufferSize, System::nanoTime);
    }

    /** @param nanoTime the monotonic clock listings age by (tests pass their own) */
    FileServer(Supplier<Map<String, List<Path>>> fileRoots, IntSupplier bufferSize, LongSupplier nanoTime) {
        this.fileRoots = fileRoots;
        this.bufferSize = bufferSize;
        this.memo = new FileServerMemo(nanoTime);
    }

    /** The saltenvs of {@code file_roots}, sorted (Salt's {@code fileserver.envs}). */
    public List<String> envs() {
        return fileRoots.get().keySet().stream().sorted().toList();
    }

    /** A file found for a wire path: the path as asked (Salt's {@code rel}) and the real file serving it. */
    public record Found(String rel, Path file) {}

    /**
     * The files of a saltenv whose relative path starts with {@code prefix} (leading and trailing '/'
     * ignored, plain string prefix as Salt's), '/'-separated and sorted, over every root of the env.
     */
    public List<String> list(String saltenv, String prefix) {
        String p = strip(prefix == null ? "" : prefix);
        List<Path> roots = roots(saltenv);
        if (roots.isEmpty()) {
            return List.of();
        }
        List<String> all = memo.listing(saltenv, roots, () -> {
            TreeSet<String> names = new TreeSet<>();
            for (Path root : roots) {
                walk(root, names);
            }
            return List.copyOf(names);
        });
        return all.stream().filter(n -> n.startsWith(p)).toList();
    }

    /**
     * The file serving {@code wirePath} in {@code saltenv}: the first root holding it.
     *
     * @throws UnsafePathException when the path is refused (in any root)
     */
    public Optional<Found> find(String saltenv, String wirePath) {
        WirePath.check(wirePath);
        for (Path root : roots(saltenv)) {
            Optional<Path> file = SafePath.join(root, wirePath);
            if (file.isPresent()) {
                return Optional.of(new Found(wirePath, file.get()));
            }
        }
        return Optional.empty();
    }

    /** The hex SHA-256 of a found file, computed once per (path, size, mtime). */
    public String hash(Found found) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(found.file(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return memo.hash(found.file(), attrs.size(), attrs.lastModifiedTime(), () -> sha256(found.file()));
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] buf = new byte[65536];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                digest.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Up to {@code file_buffer_size} bytes of a found file from offset {@code loc}; empty at or past its end. */
    public byte[] read(Found found, long loc) throws IOException {
        try (FileChannel ch = FileChannel.open(found.file(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            if (loc >= size) {
                return new byte[0];
            }
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(bufferSize.getAsInt(), size - loc));
            long at = loc;
            while (buf.hasRemaining()) {
                int n = ch.read(buf, at);
                if (n < 0) {
                    break; // shrank while we read: give what there was
                }
                at += n;
            }
            byte[] out = new byte[buf.position()];
            buf.flip().get(out);
            return out;
        }
    }

    private List<Path> roots(String saltenv) {
        List<Path> roots = saltenv == null ? null : fileRoots.get().get(saltenv);
        return roots == null ? List.of() : roots;
    }

    /** Adds the root's servable files: regular files whose real path stays in the root, with servable names. */
    private static void walk(Path root, TreeSet<String> names) {
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            return;
        }
        List<String> found = new ArrayList<>();
        try {
            Files.walkFileTree(realRoot, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return inside(realRoot, dir) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && inside(realRoot, file)) {
                        String rel = relative(realRoot, file);
                        if (servable(rel)) {
                            found.add(rel);
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // a loop, a dangling link or no permission: not listed
                }
            });
        } catch (IOException e) {
            log.warn("file root {} could not be listed: {}", root, e.toString());
        }
        names.addAll(found);
    }

    private static boolean inside(Path realRoot, Path p) {
        try {
            return p.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false;
        }
    }

    private static String relative(Path root, Path file) {
        List<String> parts = new ArrayList<>();
        root.relativize(file).forEach(p -> parts.add(p.toString()));
        return String.join("/", parts);
    }

    private static boolean servable(String rel) {
        return WirePath.isValid(rel);
    }

    private static String strip(String prefix) {
        int start = 0;
        int end = prefix.length();
        while (start < end && prefix.charAt(start) == '/') {
            start++;
        }
        while (end > start && prefix.charAt(end - 1) == '/') {
            end--;
        }
        return prefix.substring(start, end);
    }
}
