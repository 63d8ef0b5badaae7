package io.jsalt.modules.builtin.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Replaces a file's content all at once: the new bytes go to a temporary file beside it, which is
 * flushed and then renamed over the target, so a reader sees the old file or the new one, never half
 * of one, and a crash leaves the old file intact. An existing file keeps its mode, owner and group; a
 * new one gets 0644.
 */
public final class AtomicFileWriter {

    private static final Set<PosixFilePermission> NEW_FILE_MODE = PosixFilePermissions.fromString("rw-r--r--");

    private AtomicFileWriter() {
    }

    /** Writes {@code content} to {@code target}, which must not be a symbolic link (the caller resolved it). */
    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.getParent();
        PosixFileAttributes existing = Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                ? Files.readAttributes(target, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS) : null;
        if (existing != null && !existing.isRegularFile()) {
            throw new IOException("not a regular file: " + target);
        }
        Path temp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".jsalt-tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            PosixFileAttributeView view = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
            if (existing == null) {
                view.setPermissions(NEW_FILE_MODE);
            } else {
                copyOwnership(view, existing);
                FileModes.apply(temp, FileModes.of(target));
            }
            move(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Copies {@code source} over {@code target} the same way: through a temporary file and a rename. The
     * copy gets the source's mode and times, or keeps the existing target's mode when
     * {@code keepTargetMode} is set.
     */
    public static void copy(Path source, Path target, boolean keepTargetMode) throws IOException {
        Integer targetMode = keepTargetMode && Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                ? FileModes.of(target, LinkOption.NOFOLLOW_LINKS) : null;
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".jsalt-tmp");
        try {
            Files.copy(source, temp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            if (targetMode != null) {
                FileModes.apply(temp, targetMode);
            }
            move(temp, target);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void copyOwnership(PosixFileAttributeView view, PosixFileAttributes existing) {
        try {
            view.setOwner(existing.owner());
            view.setGroup(existing.group());
        } catch (IOException e) {
            // only root may give a file away; anyone else writes files they own, as Salt does
        }
    }
}
