package io.jsalt.minion.jobs;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's proc folder, {@code cachedir/proc}: one msgpack file per running job, named by its jid, holding the
 * job's proc data ({@code jid, fun, arg, tgt, tgt_type, user, pid, child_pids, start_time}), mode 0600, written
 * atomically and removed when the job ends. Tools that read a salt-minion's proc folder can read this one.
 */
public final class ProcRecords {
    private static final Logger log = LoggerFactory.getLogger(ProcRecords.class);
    /** A jid becomes a file name: Salt's are 20 digits; anything else odd is kept out of the folder. */
    private static final Pattern SAFE_JID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path dir;
    /** The folder was made (or found) once; made again only if a write finds it gone. */
    private volatile boolean folderMade;

    public ProcRecords(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    /** Writes (or rewrites) the record of job {@code jid}; false when the jid cannot name a file or on I/O failure. */
    public boolean write(String jid, Map<String, Object> data) {
        if (!SAFE_JID.matcher(jid).matches()) {
            log.debug("no proc record for job {}: not usable as a file name", jid);
            return false;
        }
        // a name of its own per job and thread, in a folder only this minion may write: no random name to make (a
        // temp file's SecureRandom name and the folder check cost a minion a third of this record, every job)
        Path tmp = dir.resolve("." + jid + "." + Thread.currentThread().getId() + ".tmp");
        try {
            if (!folderMade) {
                makeFolder();
            }
            byte[] bytes = SaltPack.pack(data);
            try {
                writePrivate(tmp, bytes);
            } catch (NoSuchFileException folderGone) {
                makeFolder();
                writePrivate(tmp, bytes);
            }
            try {
                Files.move(tmp, dir.resolve(jid), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(jid), StandardCopyOption.REPLACE_EXISTING);
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("cannot write the proc record of job {}: {}", jid, e.toString());
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the warning above says the record is missing; a stray temporary file is removed at the next start
            }
            return false;
        }
    }

    private void makeFolder() throws IOException {
        // 0700 as Salt's proc folder: a record holds the job's arguments
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
        folderMade = true;
    }

    /** Writes {@code bytes} to {@code file}, created 0600 if new, never through a symbolic link. */
    private static void writePrivate(Path file, byte[] bytes) throws IOException {
        try (SeekableByteChannel ch = Files.newByteChannel(file, Set.<OpenOption>of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(FILE_MODE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                ch.write(buffer);
            }
        }
    }

    /** The record of job {@code jid}, or null when there is none (or it does not decode). */
    public Map<String, Object> read(String jid) {
        if (!SAFE_JID.matcher(jid).matches()) {
            return null;
        }
        try {
            return Wire.asMap(SaltPack.unpack(Files.readAllBytes(dir.resolve(jid))));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    public void remove(String jid) {
        if (!SAFE_JID.matcher(jid).matches()) {
            return;
        }
        try {
            Files.deleteIfExists(dir.resolve(jid));
        } catch (IOException e) {
            log.warn("cannot remove the proc record of job {}: {}", jid, e.toString());
        }
    }

    /**
     * Removes the records left by a minion process that is gone (Salt's minion cleans its proc folder of dead
     * pids at start); records of live processes, another minion in this JVM for one, stay.
     */
    public void removeStale() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                Map<String, Object> data = read(file.getFileName().toString());
                Object pid = data == null ? null : data.get("pid");
                boolean alive = pid instanceof Number n && ProcessHandle.of(n.longValue()).map(ProcessHandle::isAlive).orElse(false);
                if (!alive) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException e) {
            log.warn("cannot clean the proc folder {}: {}", dir, e.toString());
        }
    }
}
