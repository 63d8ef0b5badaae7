package io.jsalt.minion.jobs;

import io.jsalt.crypto.Crypticle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a publication seen before, so a captured one sent again does not run again. Two checks: its
 * {@code serial} must be above the last one seen under the same session key (Salt's Crypticle.loads; the
 * count restarts with each key), and its jid must not be one already run (Salt's minion keeps a
 * {@code jid_queue} in memory for the same reason). A minion of several masters speaks under one session
 * key per master, so the last serial is kept per key (the {@link #MAX_KEYS} latest), and a job that two
 * masters both send (a relayed publication) runs once, from the first.
 *
 * <p>With a file, both survive a restart of the minion: without it, a publication captured by any
 * subscriber of the publish port (they all get every frame) and sent to a minion that restarted runs
 * again, because the session key lives for {@code publish_session} (24 h by default). The file holds the
 * SHA-256 of a session key (never the key) when the key in use changes, a {@code serial} line with that
 * key's last serial when compacted, and one line per job let through, appended; jids older than
 * {@link #KEEP} or beyond {@link #MAX_JIDS} are dropped when it is compacted. A missing or unreadable
 * file starts empty (logged).
 */
final class ReplayGuard {
    private static final Logger log = LoggerFactory.getLogger(ReplayGuard.class);
    /** Jids remembered at most (Salt's minion_jid_queue_hwm is 100). */
    static final int MAX_JIDS = 1_000;
    /** How long a jid is remembered: a session key's default lifetime ({@code publish_session}). */
    static final Duration KEEP = Duration.ofHours(24);
    private static final long MAX_FILE_BYTES = 1024 * 1024;
    private static final Pattern KEY_LINE = Pattern.compile("key [0-9a-f]{64}");
    private static final Pattern JOB_LINE = Pattern.compile("job -?[0-9]{1,19} [0-9]{20} [0-9]{1,19}");
    private static final Pattern SERIAL_LINE = Pattern.compile("serial -?[0-9]{1,19}");
    /** Session keys whose last serial is remembered: one per master, and their rotations. */
    static final int MAX_KEYS = 16;

    /** What the guard makes of a publication. */
    enum Verdict {
        /** Never seen: run it (it is remembered now). */
        NEW,
        /** Its serial is not above the last of its key, or it has none: a replay. */
        REPLAYED,
        /** A fresh serial, but its jid ran already: the same job from another master, or a replay under a new key. */
        SEEN
    }

    private final Path file;
    private final Supplier<Instant> clock;
    /** The digest of the key in use: the one the last "key" line of the file names. */
    private String keyDigest;
    /** Key digest → the last serial let through under it, least recently used first. */
    private final LinkedHashMap<String, Long> lastByKey = new LinkedHashMap<>(16, 0.75f, true);
    /** jid → when it was let through, oldest first. */
    private final LinkedHashMap<String, Long> jids = new LinkedHashMap<>();
    private int linesWritten;
    /** The last key seen and its digest, so the digest is not taken for every publication. */
    private String lastKeyString;
    private String lastKeyStringDigest;

    /** A guard held in memory only. */
    ReplayGuard() {
        this(null, Instant::now);
    }

    /** A guard kept in {@code file} (mode 0600), read back now. */
    ReplayGuard(Path file) {
        this(file, Instant::now);
    }

    ReplayGuard(Path file, Supplier<Instant> clock) {
        this.file = file;
        this.clock = clock;
        if (file != null) {
            read();
        }
    }

    /** As {@link #accept(Crypticle, Object, String)} without a jid: the serial alone decides. */
    synchronized boolean accept(Crypticle sessionKey, Object serial) {
        return accept(sessionKey, serial, null);
    }

    /**
     * False for a replayed or missing serial (Salt 3006+ masters always send one) or a jid let through before;
     * true otherwise, and then the publication is remembered (on disk too) before it runs.
     */
    synchronized boolean accept(Crypticle sessionKey, Object serial, String jid) {
        return judge(sessionKey, serial, jid) == Verdict.NEW;
    }

    /** As {@link #accept(Crypticle, Object, String)}, telling a replayed serial from a job run already. */
    synchronized Verdict judge(Crypticle sessionKey, Object serial, String jid) {
        return judge(sessionKey, null, serial, jid);
    }

    /**
     * As {@link #judge(Crypticle, Object, String)}, counting serials per {@code scope} as well as per key: the masters
     * of a cluster share one session key, but each counts its own serials, so a minion of several masters keeps
     * the last serial per master ({@code scope}: which one; null for a minion of one master).
     */
    synchronized Verdict judge(Crypticle sessionKey, String scope, Object serial, String jid) {
        String keyString = scope == null ? sessionKey.keyString() : sessionKey.keyString() + "\n" + scope;
        if (!keyString.equals(lastKeyString)) {
            lastKeyString = keyString;
            lastKeyStringDigest = digest(keyString);
        }
        String digest = lastKeyStringDigest;
        if (!digest.equals(keyDigest)) {
            keyDigest = digest;
            append("key " + digest);
        }
        long last = lastByKey.getOrDefault(digest, -1L);
        if (!(serial instanceof Number n) || n.longValue() <= last) {
            return Verdict.REPLAYED;
        }
        if (jid != null && jids.containsKey(jid)) {
            return Verdict.SEEN;
        }
        remember(digest, n.longValue());
        if (jid != null) {
            long now = clock.get().getEpochSecond();
            jids.put(jid, now);
            forgetOld(now);
            if (jid.length() == 20 && jid.chars().allMatch(Character::isDigit)) {
                append("job " + n.longValue() + " " + jid + " " + now);
            }
        }
        return Verdict.NEW;
    }

    private void remember(String digest, long serial) {
        lastByKey.put(digest, Math.max(serial, lastByKey.getOrDefault(digest, -1L)));
        if (lastByKey.size() > MAX_KEYS) {
            Iterator<String> eldest = lastByKey.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    private void forgetOld(long now) {
        for (Iterator<Map.Entry<String, Long>> it = jids.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Long> e = it.next();
            if (jids.size() > MAX_JIDS || e.getValue() < now - KEEP.toSeconds()) {
                it.remove();
            } else {
                break;
            }
        }
    }

    private void read() {
        try {
            if (!Files.isRegularFile(file)) {
                return;
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                log.warn("replay guard {} is larger than {} bytes: started empty", file, MAX_FILE_BYTES);
                return;
            }
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                if (KEY_LINE.matcher(line).matches()) {
                    keyDigest = line.substring(4);
                    lastByKey.putIfAbsent(keyDigest, -1L);
                } else if (SERIAL_LINE.matcher(line).matches() && keyDigest != null) {
                    remember(keyDigest, Long.parseLong(line.substring(7)));
                } else if (JOB_LINE.matcher(line).matches()) {
                    String[] f = line.split(" ");
                    if (keyDigest != null) {
                        remember(keyDigest, Long.parseLong(f[1]));
                    }
                    jids.remove(f[2]);
                    jids.put(f[2], Long.parseLong(f[3]));
                }
            }
            forgetOld(clock.get().getEpochSecond());
        } catch (IOException | NumberFormatException e) {
            log.warn("replay guard {} could not be read ({}): started empty", file, e.toString());
            keyDigest = null;
            lastByKey.clear();
            jids.clear();
        }
    }

    private void append(String line) {
        if (file == null) {
            return;
        }
        try {
            if (++linesWritten > 2 * MAX_JIDS) {
                compact();
                return;
            }
            if (!Files.exists(file)) {
                Files.createDirectories(file.getParent());
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(file, line + "\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the guard still holds in memory; only a restart would forget what was not written
            log.warn("replay guard {} not written: {}", file, e.toString());
        }
    }

    /** Rewrites the file with what is remembered now, atomically. */
    private void compact() throws IOException {
        linesWritten = 0;
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Long> k : lastByKey.entrySet()) {
            if (!k.getKey().equals(keyDigest)) {
                lines.add("key " + k.getKey());
                lines.add("serial " + k.getValue());
            }
        }
        long last = keyDigest == null ? -1 : lastByKey.getOrDefault(keyDigest, -1L);
        if (keyDigest != null) {
            lines.add("key " + keyDigest); // the key in use last, so that lines appended after it are its own
            lines.add("serial " + last);
        }
        for (Map.Entry<String, Long> e : jids.entrySet()) {
            lines.add("job " + last + " " + e.getKey() + " " + e.getValue());
        }
        Files.createDirectories(file.getParent());
        Path tmp = Files.createTempFile(file.getParent(), ".replay-", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(tmp, lines, StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        linesWritten = lines.size();
    }

    private static String digest(String keyString) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(keyString.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
