package io.jsalt.minion.returns;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Returns the master has not taken yet, kept on disk (under {@code cachedir}) so they survive a master
 * outage and a minion restart: one file per pending return, mode 0600 in a 0700 folder, written to a
 * temporary file and moved into place atomically, so a crash leaves either the whole return or none.
 * File names come only from a jid checked here ({@code <20 digits>.return}, at most one file per job) or
 * from a name made here ({@code req-<uuid>.return} for returns that ask the master for a jid); wire data
 * never becomes a path. Thread-safe: each call works on whole files.
 */
public final class ReturnOutbox {
    private static final Logger log = LoggerFactory.getLogger(ReturnOutbox.class);

    /** Pending returns kept at most; past that new ones are dropped (a master away for long, a fast schedule). */
    public static final int MAX_PENDING = 1000;
    static final String SUFFIX = ".return";
    private static final Pattern JID = Pattern.compile("[0-9]{20}");
    private static final Pattern NAME = Pattern.compile("([0-9]{20}|req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
            + Pattern.quote(SUFFIX));
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    /** One pending return: its file name (also its identity) and the jid it answers. */
    public record Entry(String name, String jid) {}

    private final Path dir;
    private final int maxPending;

    /** Opens (creating it 0700 when missing) the outbox folder and removes temporary files a crash left. */
    public ReturnOutbox(Path dir) {
        this(dir, MAX_PENDING);
    }

    ReturnOutbox(Path dir, int maxPending) {
        this.dir = dir;
        this.maxPending = maxPending;
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(dir.getParent());
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            }
            Files.setPosixFilePermissions(dir, DIR_MODE);
            try (DirectoryStream<Path> tmp = Files.newDirectoryStream(dir, ".tmp-*")) {
                for (Path p : tmp) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the return outbox " + dir, e);
        }
    }

    /** True for a jid this outbox can name a file after: Salt's 20 digits, or "req". */
    public static boolean acceptsJid(String jid) {
        return jid != null && (JID.matcher(jid).matches() || "req".equals(jid));
    }

    public Path dir() {
        return dir;
    }

    /**
     * Keeps {@code load} (the complete, signed return) until {@link #remove}. A second put for the same
     * jid replaces the first, so a job is never kept twice. Empty when the jid cannot name a file or the
     * outbox is full (both logged).
     */
    public Optional<Entry> put(String jid, Map<String, Object> load) {
        // a job interrupted at shutdown still gets its return kept: an interrupt flag would make the
        // file channel close itself (ClosedByInterruptException), so it is set aside for the write
        boolean interrupted = Thread.interrupted();
        try {
            return write(jid, load);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Optional<Entry> write(String jid, Map<String, Object> load) {
        if (!acceptsJid(jid)) {
            log.warn("return of a job with a malformed jid not kept for later");
            return Optional.empty();
        }
        String name = ("req".equals(jid) ? "req-" + UUID.randomUUID() : jid) + SUFFIX;
        if (!Files.exists(dir.resolve(name)) && count() >= maxPending) {
            log.warn("return outbox {} is full ({} returns waiting for the master): return of job {} dropped", dir, maxPending, jid);
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = SaltPack.packBinType(load);
        } catch (WireException e) {
            log.warn("return of job {} cannot be kept for later: {}", jid, e.getMessage());
            return Optional.empty();
        }
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, ".tmp-", SUFFIX, PosixFilePermissions.asFileAttribute(FILE_MODE));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true); // on disk before it is visible under its real name
            }
            try {
                Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            return Optional.of(new Entry(name, jid));
        } catch (IOException e) {
            log.error("return of job {} could not be kept in {}: {}", jid, dir, e.toString());
            return Optional.empty();
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the next start removes it
                }
            }
        }
    }

    /** The pending returns, oldest job first (jids sort by time; "req" returns after them). */
    public List<Entry> pending() {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path p : files) {
                String name = p.getFileName().toString();
                if (NAME.matcher(name).matches() && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    entries.add(new Entry(name, name.startsWith("req-") ? "req" : name.substring(0, name.length() - SUFFIX.length())));
                }
            }
        } catch (IOException e) {
            log.error("cannot list the return outbox {}: {}", dir, e.toString());
        }
        entries.sort((a, b) -> a.name().compareTo(b.name()));
        return entries;
    }

    /** The kept load; empty (and the file removed) when it cannot be read back as a return. */
    public Optional<Map<String, Object>> read(Entry entry) {
        Path file = fileOf(entry);
        try {
            return Optional.of(Wire.asMap(SaltPack.unpack(Files.readAllBytes(file))));
        } catch (WireException | IOException e) {
            log.warn("unreadable pending return {} removed: {}", file, e.toString());
            remove(entry);
            return Optional.empty();
        }
    }

    /** Forgets a return: the master took it or refused it for good. */
    public void remove(Entry entry) {
        try {
            Files.deleteIfExists(fileOf(entry));
        } catch (IOException e) {
            log.warn("cannot remove pending return {}: {}", entry.name(), e.toString());
        }
    }

    private int count() {
        return pending().size();
    }

    private Path fileOf(Entry entry) {
        if (!NAME.matcher(entry.name()).matches()) {
            throw new IllegalArgumentException("not an outbox entry name");
        }
        return dir.resolve(entry.name());
    }
}
