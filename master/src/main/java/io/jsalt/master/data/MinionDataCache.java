package io.jsalt.master.data;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.MinionId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grains each minion last reported (with its pillar request), kept for targeting. With a cache
 * folder it is durable, laid out as Salt's minion data cache: {@code <cachedir>/minions/<id>/data.p}, a
 * msgpack map {@code {"grains": {...}, "grains_verified": bool, "grains_stamp": millis}} written atomically with mode 0600, read
 * back at start so grain targets resolve before minions sign in again. A file that does not read is
 * logged and left out.
 *
 * <p>Grains are <em>verified</em> when the minion signed them with its accepted key (jsalt minions do);
 * a salt-minion's are not, and any holder of the session key could have sent them under that id. Once a
 * minion's grains are verified, unverified ones never replace them (until its key is deleted). A grains
 * map nested deeper than {@link #MAX_DEPTH} or packing to more than {@link #MAX_GRAINS_BYTES} is refused.
 */
public final class MinionDataCache {
    private static final Logger log = LoggerFactory.getLogger(MinionDataCache.class);
    static final String DATA_FILE = "data.p";
    /** A data file larger than this is not a minion's grains: it is refused rather than loaded. */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;
    /** The most one minion's grains may take, packed: far above any real host's, far below a flood. */
    public static final int MAX_GRAINS_BYTES = 1024 * 1024;
    /** Real grains nest a few levels; this bounds what a hostile map costs every matcher. */
    public static final int MAX_DEPTH = 32;
    static final String VERIFIED_KEY = "grains_verified";

    static final String STAMP_KEY = "grains_stamp";

    /** @param stamp when the minion sent verified grains, in its clock's epoch millis; null when unknown */
    private record Known(Map<String, Object> grains, boolean verified, Long stamp) {}

    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final Path dir;
    /** Set for a master of a cluster: the grains are the cluster's, in its database. */
    private final SharedMinionData shared;
    /**
     * A cluster's: the newest stamp of signed grains this master has seen sealed in the database (or written
     * there) for each minion. The database only ever moves a minion's signed grains forward, so a sealed row
     * older than this one is an earlier row put back by something other than a master (a replay).
     */
    private final Map<String, Long> newestSealed = new ConcurrentHashMap<>();
    /** Grains taken while the cluster's database was away: written there first when it is back ({@link #reloadAll}). */
    private final Map<String, Known> keptHere = new ConcurrentHashMap<>();

    /** A cache held in memory only. */
    public MinionDataCache() {
        this.dir = null;
        this.shared = null;
    }

    /** A cache of the grains every master of a cluster shares, loaded now. */
    public MinionDataCache(SharedMinionData shared) {
        this.dir = null;
        this.shared = shared;
        reloadAll();
        log.info("minion data cache: grains of {} minion(s) shared by the cluster", known.size());
    }

    /** A cache kept under {@code cachedir/minions}, loaded now. */
    public MinionDataCache(Path cachedir) {
        this.dir = cachedir.resolve("minions");
        this.shared = null;
        try {
            createPrivateDir(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the minion data cache " + dir, e);
        }
        load();
    }

    /** Stores grains the master vouches for itself (verified), as {@link #putGrains(String, Map, boolean)}. */
    public void putGrains(String id, Map<String, Object> minionGrains) {
        putGrains(id, minionGrains, true);
    }

    /**
     * Keeps a minion's reported grains; synchronized with {@link #forget} so the file on disk always holds
     * the newest. Returns false, logged, when they are refused: too large or deep, or unverified while the
     * grains known already are verified (the old grains stay).
     *
     * @param verified signed by the accepted key of {@code id}
     * @throws WireException for an invalid minion id
     */
    public synchronized boolean putGrains(String id, Map<String, Object> minionGrains, boolean verified) {
        return putGrains(id, minionGrains, verified, null);
    }

    /**
     * As {@link #putGrains(String, Map, boolean)}, and grains only move forward: verified grains stamped
     * before the verified grains known ({@code stamp}, signed by the minion with them) are an old report sent
     * again, and refused; so are unstamped verified grains once stamped ones are known.
     *
     * @param stamp when the minion sent them ({@code jsalt_stamp}); null for a minion that does not stamp
     */
    public synchronized boolean putGrains(String id, Map<String, Object> minionGrains, boolean verified, Long stamp) {
        MinionId.require(id);
        Known before = known.get(id);
        if (!verified && before != null && before.verified()) {
            log.warn("unsigned grains for {} ignored: the grains known are signed by its key", id);
            return false;
        }
        if (verified && before != null && before.verified() && before.stamp() != null
                && (stamp == null || stamp < before.stamp())) {
            log.warn("grains of {} refused: older than the grains known (a replayed report)", id);
            return false;
        }
        if (depth(minionGrains, 0) > MAX_DEPTH) {
            log.warn("grains of {} refused: nested deeper than {} levels", id, MAX_DEPTH);
            return false;
        }
        int size = SaltPack.pack(minionGrains).length;
        if (size > MAX_GRAINS_BYTES) {
            log.warn("grains of {} refused: {} bytes packed, more than {}", id, size, MAX_GRAINS_BYTES);
            return false;
        }
        // Salt grains often hold None: keep nulls (Map.copyOf would refuse them)
        Known now = new Known(Collections.unmodifiableMap(new LinkedHashMap<>(minionGrains)), verified, verified ? stamp : null);
        if (shared != null && !now.equals(before)) {
            return writeShared(id, now);
        }
        known.put(id, now);
        if (dir != null && !now.equals(before)) {
            write(id, now);
        }
        return true;
    }

    /**
     * Into the cluster's database first; when it keeps grains from another master that these may not replace,
     * those are taken instead. While it is away, they are kept here (this master targets by them) and logged.
     */
    private boolean writeShared(String id, Known now) {
        try {
            if (!shared.write(id, new SharedMinionData.Stored(now.grains(), now.verified(), now.stamp()))) {
                log.warn("grains of {} refused: the cluster holds signed grains these may not replace", id);
                reload(id);
                return false;
            }
            if (now.verified() && now.stamp() != null) {
                newestSealed.merge(id, now.stamp(), Math::max);
            }
            keptHere.remove(id);
        } catch (RuntimeException e) {
            log.warn("grains of {} kept on this master only until the database is back: {}", id, e.getMessage());
            keptHere.put(id, now);
        }
        known.put(id, now);
        return true;
    }

    /** Another master changed the grains of {@code id}: read them again from the cluster's database. */
    public synchronized void reload(String id) {
        if (shared == null || !MinionId.isValid(id)) {
            return;
        }
        shared.read(id).ifPresentOrElse(d -> adopt(id, d), () -> known.remove(id));
    }

    /**
     * Reads every minion's grains again from the cluster's database (after its notifications may have been missed),
     * once the grains this master took while the database was away are written there: they are newer than its rows.
     */
    public synchronized void reloadAll() {
        if (shared == null) {
            return;
        }
        for (String id : Set.copyOf(keptHere.keySet())) {
            Known kept = keptHere.get(id);
            if (!writeShared(id, kept)) {
                keptHere.remove(id); // the database holds grains these may not replace: they are read below
            }
        }
        Map<String, SharedMinionData.Stored> all = shared.readAll();
        known.keySet().removeIf(id -> !all.containsKey(id) && !keptHere.containsKey(id));
        all.forEach((id, d) -> {
            if (MinionId.isValid(id) && !keptHere.containsKey(id)) {
                adopt(id, d);
            }
        });
    }

    /**
     * Takes a sealed row of the database, unless it goes back behind signed grains this master saw sealed
     * there: then the row is an earlier one put back (a replay by a database writer), and what this master
     * knows stays (nothing, if the row had been deleted first).
     */
    private void adopt(String id, SharedMinionData.Stored d) {
        Long newest = newestSealed.get(id);
        if (newest != null && (!d.verified() || d.stamp() == null || d.stamp() < newest)) {
            log.warn("cluster: the grains of {} in jsalt_minion_data went back to an earlier report ({} before {} seen there):"
                    + " ignored (an earlier row put back by something other than a master)", id,
                    d.verified() ? d.stamp() : "unsigned", newest);
            return;
        }
        if (d.verified() && d.stamp() != null) {
            newestSealed.merge(id, d.stamp(), Math::max);
        }
        known.put(id, known(d));
    }

    /**
     * The key of {@code id} went, on another master of the cluster: its grains follow through the database, and
     * a minion accepted again under that id starts a history of its own (its reports may be stamped earlier).
     */
    public void keyRevokedElsewhere(String id) {
        newestSealed.remove(id);
    }

    private static Known known(SharedMinionData.Stored d) {
        return new Known(Collections.unmodifiableMap(new LinkedHashMap<>(d.grains())), d.verified(), d.verified() ? d.stamp() : null);
    }

    public Optional<Map<String, Object>> grains(String id) {
        return Optional.ofNullable(known.get(id)).map(Known::grains);
    }

    /** True when the grains known for {@code id} were signed by its accepted key; false when unknown. */
    public boolean grainsVerified(String id) {
        Known k = known.get(id);
        return k != null && k.verified();
    }

    /** The ids whose grains are known. */
    public Set<String> ids() {
        return Collections.unmodifiableSet(known.keySet());
    }

    /** Drops what is known of a minion whose key was deleted or rejected, on disk too. */
    public synchronized void forget(String id) {
        known.remove(id);
        keptHere.remove(id);
        newestSealed.remove(id);
        if (shared != null && MinionId.isValid(id)) {
            try {
                shared.remove(id);
            } catch (RuntimeException e) {
                log.warn("cannot remove the shared grains of {}: {}", id, e.getMessage());
            }
        }
        if (dir == null || !MinionId.isValid(id)) {
            return;
        }
        Path minionDir = MinionId.resolveIn(dir, id);
        try {
            Files.deleteIfExists(minionDir.resolve(DATA_FILE));
            Files.deleteIfExists(minionDir);
        } catch (IOException e) {
            log.warn("cannot remove cached data of {}: {}", id, e.getMessage());
        }
    }

    /**
     * Forgets every minion {@code keep} refuses: at start, the grains of keys that {@code jsalt-key}
     * deleted or rejected while the master was down.
     */
    public void retainOnly(Predicate<String> keep) {
        for (String id : Set.copyOf(known.keySet())) {
            if (!keep.test(id)) {
                forget(id);
            }
        }
    }

    private void load() {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String id = entry.getFileName().toString();
                if (MinionId.isValid(id) && Files.isDirectory(entry)) {
                    read(id).ifPresent(k -> known.put(id, k));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the minion data cache " + dir, e);
        }
        log.info("minion data cache: grains of {} minion(s) loaded from {}", known.size(), dir);
    }

    /** How deep maps and lists nest, counted only as far as it matters (past the bound it stops). */
    private static int depth(Object value, int level) {
        if (level > MAX_DEPTH) {
            return level;
        }
        int deepest = level;
        if (value instanceof Map<?, ?> m) {
            for (Object v : m.values()) {
                deepest = Math.max(deepest, depth(v, level + 1));
            }
        } else if (value instanceof List<?> l) {
            for (Object v : l) {
                deepest = Math.max(deepest, depth(v, level + 1));
            }
        }
        return deepest;
    }

    private Optional<Known> read(String id) {
        Path file = MinionId.resolveIn(dir, id).resolve(DATA_FILE);
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                log.warn("ignored cached data of {}: {} is larger than {} bytes", id, file, MAX_FILE_BYTES);
                return Optional.empty();
            }
            Object data = SaltPack.unpack(Files.readAllBytes(file));
            if (data instanceof Map<?, ?> m && m.get("grains") instanceof Map<?, ?> g) {
                Map<String, Object> copy = new LinkedHashMap<>();
                g.forEach((k, v) -> copy.put(String.valueOf(k), v));
                // a file from before the flag existed holds grains nobody vouched for
                boolean verified = Boolean.TRUE.equals(m.get(VERIFIED_KEY));
                Long stamp = verified && m.get(STAMP_KEY) instanceof Number n ? n.longValue() : null;
                return Optional.of(new Known(Collections.unmodifiableMap(copy), verified, stamp));
            }
            log.warn("ignored cached data of {}: {} holds no grains map", id, file);
        } catch (NoSuchFileException e) {
            // a minion folder without data: nothing known
        } catch (WireException e) {
            log.warn("ignored cached data of {}: {} is corrupt ({})", id, file, e.getMessage());
        } catch (IOException e) {
            log.warn("ignored cached data of {}: cannot read {} ({})", id, file, e.getMessage());
        }
        return Optional.empty();
    }

    private void write(String id, Known entry) {
        Path minionDir = MinionId.resolveIn(dir, id);
        Path tmp = null;
        try {
            createPrivateDir(minionDir);
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("grains", entry.grains());
            data.put(VERIFIED_KEY, entry.verified());
            if (entry.stamp() != null) {
                data.put(STAMP_KEY, entry.stamp());
            }
            byte[] bytes = SaltPack.pack(data);
            tmp = Files.createTempFile(minionDir, ".tmp-", ".p", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, minionDir.resolve(DATA_FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, minionDir.resolve(DATA_FILE), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | IllegalArgumentException e) {
            // the grains stay known in memory; only a restart would lose them
            log.warn("cannot write cached data of {}: {}", id, e.getMessage());
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // moved already, or the write failed and there is nothing more to do
                }
            }
        }
    }

    private static void createPrivateDir(Path d) throws IOException {
        if (!Files.isDirectory(d)) {
            Files.createDirectories(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }
}
