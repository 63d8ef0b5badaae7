package io.jsalt.minion.jobs;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
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

    private final Path dir;

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
        try {
            // 0700 as Salt's proc folder: a record holds the job's arguments
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path tmp = Files.createTempFile(dir, "." + jid, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.write(tmp, SaltPack.pack(data));
                try {
                    Files.move(tmp, dir.resolve(jid), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, dir.resolve(jid), StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            log.warn("cannot write the proc record of job {}: {}", jid, e.toString());
            return false;
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
