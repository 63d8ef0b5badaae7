package io.jsalt.crypto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

/**
 * Replaces a file in one step: the content goes to a temporary file in the same folder, which then is renamed
 * over the target. The temporary file carries its final mode from its creation, before any byte is written,
 * so a secret is never readable by others, not even for a moment; a reader sees the old file or the whole new one.
 */
final class AtomicFile {
    private AtomicFile() {
    }

    static void write(Path target, byte[] content, Set<PosixFilePermission> mode) {
        Path dir = target.toAbsolutePath().getParent();
        Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] attributes = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(mode)}
                : new FileAttribute<?>[0];
        try {
            // one open(O_CREAT|O_EXCL, mode) call: the descriptor stays writable even when the mode is 0400
            try (FileChannel channel = FileChannel.open(temp,
                    EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attributes)) {
                if (posix) {
                    // the umask may have narrowed the mode: restore it while the file is still empty
                    Files.setPosixFilePermissions(temp, mode);
                }
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            throw new CryptoException("temporary file already exists: " + temp, e);
        } catch (IOException | UnsupportedOperationException e) {
            deleteQuietly(temp);
            throw new CryptoException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path temp) {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // the write already failed; that failure is the one worth reporting
        }
    }
}
