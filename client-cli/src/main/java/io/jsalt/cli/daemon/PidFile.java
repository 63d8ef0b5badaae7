package io.jsalt.cli.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;

/**
 * A daemon's pid file, locked for as long as the daemon lives (Puppet's Pidlock, with a lock instead of a
 * liveness guess): the lock, not the pid written in it, says whether the daemon runs, so a file left by a
 * crash (unlocked) is simply replaced. The file appears complete: the pid is written to a temporary file
 * in the same folder, locked, then linked or renamed into place.
 *
 * <p>The locks are fcntl locks (what {@link FileChannel#tryLock()} takes on Linux): the kernel drops them
 * when the process dies, and also when the process closes <em>any</em> descriptor of the file. So a
 * process must never open its own pid file again while it holds it; {@link #lockedBy} is for other
 * processes (and for a daemon before it takes its own).
 */
public final class PidFile implements AutoCloseable {
    /** Tries before giving up when other processes keep replacing the file under us. */
    private static final int ATTEMPTS = 5;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private final Object fileKey;

    private PidFile(Path path, FileChannel channel, FileLock lock, Object fileKey) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
        this.fileKey = fileKey;
    }

    /** Another process holds the pid file: it runs with that pid (0 when the file holds no number). */
    public static final class AlreadyRunningException extends RuntimeException {
        private final long pid;

        AlreadyRunningException(Path path, long pid) {
            super("pid file " + path + " is locked by pid " + pid);
            this.pid = pid;
        }

        public long pid() {
            return pid;
        }
    }

    /**
     * Writes {@code pid} to {@code path} and locks it, replacing a stale file (one nobody holds locked).
     *
     * @throws AlreadyRunningException when a live process holds the file
     * @throws UncheckedIOException    when the file or its folder cannot be written
     */
    public static PidFile acquire(Path path, long pid) {
        Path target = path.toAbsolutePath().normalize();
        try {
            Files.createDirectories(target.getParent());
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                PidFile taken = tryAcquire(target, pid);
                if (taken != null) {
                    return taken;
                }
            }
            throw new IOException("the pid file " + target + " kept changing while it was being taken");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pid file " + target + ": " + e.getMessage(), e);
        }
    }

    /** The pid of the live process that holds {@code path} locked, if one does (0 if it holds no number). */
    public static Optional<Long> lockedBy(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock probe = tryLock(ch);
            if (probe != null) {
                probe.release();
                return Optional.empty();
            }
            return Optional.of(readPid(ch));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the pid file " + path + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    /** Removes the file (if it is still ours) and releases the lock. */
    @Override
    public void close() {
        try {
            if (isStillOurs()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // the lock goes with the channel anyway: a file left behind is stale, and replaced at the next start
        } finally {
            try {
                lock.release();
                channel.close();
            } catch (IOException ignored) {
                // closing a file we only wrote a pid into: nothing left to save
            }
        }
    }

    private boolean isStillOurs() throws IOException {
        try {
            return Objects.equals(fileKey, Files.readAttributes(path, BasicFileAttributes.class).fileKey());
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** One attempt; null when the file changed under us and the caller should look again. */
    private static PidFile tryAcquire(Path target, long pid) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        FileChannel ch = null;
        boolean done = false;
        try {
            setReadableByAll(temp);
            ch = FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = ch.tryLock();
            if (lock == null) {
                throw new IOException("cannot lock the new file " + temp);
            }
            ch.write(ByteBuffer.wrap((pid + "\n").getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
            Object key = Files.readAttributes(temp, BasicFileAttributes.class).fileKey();
            if (placeFile(temp, target)) {
                done = true;
                return new PidFile(target, ch, lock, key);
            }
            return null;
        } finally {
            Files.deleteIfExists(temp);
            if (!done && ch != null) {
                ch.close();
            }
        }
    }

    /**
     * Puts the locked temporary file at {@code target}: a hard link when there is no file (fails if one
     * appears meanwhile), an atomic rename over a stale file while holding that file's lock, so that
     * two daemons starting together cannot both take it.
     */
    private static boolean placeFile(Path temp, Path target) throws IOException {
        try {
            Files.createLink(target, temp);
            return true;
        } catch (FileAlreadyExistsException e) {
            // a file is there: live (refuse) or stale (replace)
        } catch (UnsupportedOperationException e) {
            // no hard links here: fall through to the rename, which is atomic too
        }
        Object staleKey;
        try {
            staleKey = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            return false;
        }
        try (FileChannel stale = FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock staleLock = tryLock(stale);
            if (staleLock == null) {
                throw new AlreadyRunningException(target, readPid(stale));
            }
            // the path may have been replaced between reading its key and locking what we opened
            Object now;
            try {
                now = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
            } catch (NoSuchFileException e) {
                return false;
            }
            if (!Objects.equals(staleKey, now)) {
                return false;
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** A lock, or null when another process (or another channel of this JVM) holds one. */
    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static long readPid(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(32);
        ch.read(buf, 0);
        String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void setReadableByAll(Path file) throws IOException {
        try {
            // monitoring and systemd's PIDFile= read it; only the daemon writes it
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the default mode will do
        }
    }
}
