package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor's state file ({@code <cachedir>/supervisor/processes}, 0600 in a 0700 folder): for every
 * process that runs, its pid and the start time the kernel gave it, so that the next minion adopts the
 * programs this one started instead of starting them a second time. Rewritten whole (a temporary file moved
 * over it) after every change, so a minion killed at any moment leaves either the old or the new file.
 *
 * <p>One line per process: {@code name pid starttime started_ms restarts stopsignal launch}, where
 * {@code launch} is a digest of what the process was started with ({@link #launch}): a definition changed while
 * no minion ran is noticed, and its process is started again with the new one.
 */
final class ProcessRecords {
    private static final Logger log = LoggerFactory.getLogger(ProcessRecords.class);
    private static final String HEADER = "# jsalt supervisor processes v1: name pid starttime started_ms restarts stopsignal launch";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,200}");

    /**
     * One running process as written down.
     *
     * @param startTicks    field 22 of its /proc/pid/stat when it was started
     * @param startedMillis when it was started (epoch milliseconds), for its uptime and startsecs
     * @param launch        {@link #launch} of the definition it was started with
     */
    record Entry(String name, long pid, long startTicks, long startedMillis, int restarts, String stopsignal, String launch) {
        String line() {
            return String.join(" ", name, Long.toString(pid), Long.toString(startTicks), Long.toString(startedMillis),
                    Integer.toString(restarts), stopsignal, launch);
        }
    }

    private final Path file;

    ProcessRecords(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /**
     * The processes written down, by name; none when there is no file. A file that others could have written
     * is not trusted (its pids would be signalled): it is ignored with a warning, as is a line that does not parse.
     */
    Map<String, Entry> read() {
        Map<String, Entry> entries = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return entries;
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                log.warn("{} is writable by group or others: not trusted, no process adopted from it", file);
                return entries;
            }
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Entry entry = parse(line);
                if (entry == null) {
                    log.warn("{}: a line that does not parse is skipped: {}", file, line);
                } else {
                    entries.put(entry.name(), entry);
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("cannot read {}: {}; no process adopted", file, e.toString());
            entries.clear();
        }
        return entries;
    }

    private static Entry parse(String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 7 || !NAME.matcher(f[0]).matches() || !Signals.NAMES.contains(f[5])) {
            return null;
        }
        try {
            long pid = Long.parseLong(f[1]);
            return pid <= 1 ? null : new Entry(f[0], pid, Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Integer.parseInt(f[4]), f[5], f[6]);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Replaces the file with these entries (an empty list leaves an empty file). */
    void write(Collection<Entry> entries) {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        entries.forEach(e -> text.append(e.line()).append('\n'));
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path tmp = Files.createTempFile(dir, ".processes", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // the programs run on; only a later minion's adoption of them is at stake
            log.warn("cannot write {}: {}; a minion restart would start these programs again", file, e.toString());
        }
    }

    /**
     * What a process is started with, as a digest: its command, folder, environment and log files. When it
     * differs from the one a running process was started with, that process no longer matches its definition.
     */
    static String launch(ProgramConfig config) {
        StringBuilder what = new StringBuilder();
        what.append(config.command()).append('\0').append(config.directory()).append('\0');
        new TreeMap<>(config.environment()).forEach((k, v) -> what.append(k).append('=').append(v).append('\0'));
        what.append(config.stdout()).append('\0').append(config.stderr()).append('\0').append(config.redirectStderr());
        what.append('\0').append(config.pidfile());
        if (config.user() != null) {
            what.append('\0').append(config.user().name()); // only when set: digests made before user= stay valid
        }
        if (config.umask() != null) {
            what.append("\0umask=").append(config.umask());
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(what.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
