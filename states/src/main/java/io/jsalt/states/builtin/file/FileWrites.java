package io.jsalt.states.builtin.file;

import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.FileModes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * How the file states write: an existing file is replaced atomically and keeps its owner and mode (Salt's
 * {@code salt.utils.files.copyfile}); a new one is written through a temporary file created 0600 and gets the mode
 * Salt's way of creating it would give it before the state applies {@code mode}, so its content is never readable
 * more widely than the state asks.
 */
public final class FileWrites {
    private static final int DEFAULT_UMASK = 022;

    private FileWrites() {
    }

    /** Replaces or creates {@code target} with {@code bytes}; a new file gets {@code newMode}. */
    public static void write(Path target, byte[] bytes, int newMode) throws IOException {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            AtomicFileWriter.write(target, bytes);
            return;
        }
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".jsalt-tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            FileModes.apply(temp, newMode);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The minion process's umask (Linux's {@code Umask:} line of /proc/self/status), 022 when it cannot say. */
    public static int umask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring("Umask:".length()).strip(), 8);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or an old kernel: Salt's usual umask
        }
        return DEFAULT_UMASK;
    }

    /** A new file's mode under the umask ({@code 0666 & ~umask}), as Python's open() creates it. */
    public static int newFileMode(int umask) {
        return 0666 & ~umask;
    }

    /**
     * Salt's {@code file.makedirs} + {@code file.mkdir}: creates {@code dir} and its missing parents, each created
     * folder getting {@code perms} (owner, group, mode).
     *
     * @return the folders created, outermost first
     */
    public static List<Path> makeDirs(Path dir, Perms perms) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            Files.createDirectory(p);
            perms.apply(p, true, false, new java.util.LinkedHashMap<>());
        }
        return missing;
    }

    /**
     * Salt's {@code backup_mode: minion} ({@code salt.utils.files.backup_minion}): a copy of {@code file} at
     * {@code <cachedir>/file_backup/<its folder without the leading />/<name>_<Day_Mon_DD_HH:MM:SS>_<micros>_<YYYY>},
     * with the file's owner and mode.
     */
    public static Path backup(Path file, Path cachedir, java.time.LocalDateTime now, long micros) throws IOException {
        Path folder = file.toAbsolutePath().normalize().getParent();
        Path into = cachedir.resolve("file_backup");
        for (Path part : folder) {
            into = into.resolve(part.toString()); // the file's absolute folder, each part a plain name
        }
        String stamp = now.format(java.time.format.DateTimeFormatter.ofPattern("EEE_MMM_dd_HH:mm:ss_",
                java.util.Locale.ROOT)) + String.format("%06d", micros % 1_000_000) + "_" + now.getYear();
        Path copy = into.resolve(file.getFileName() + "_" + stamp);
        Files.createDirectories(into);
        copyPrivately(file, copy);
        return copy;
    }

    /**
     * Copies {@code from} to a new file {@code to} that is 0600 until it holds the content, then gets {@code from}'s
     * owner, group and mode (a backup of a secret is never readable by others, not even for a moment).
     */
    public static void copyPrivately(Path from, Path to) throws IOException {
        Files.deleteIfExists(to);
        Files.createFile(to, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        try (java.io.OutputStream out = Files.newOutputStream(to, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            Files.copy(from, out);
        }
        Files.setAttribute(to, "unix:uid", Files.getAttribute(from, "unix:uid"));
        Files.setAttribute(to, "unix:gid", Files.getAttribute(from, "unix:gid"));
        FileModes.apply(to, FileModes.of(from));
    }
}
