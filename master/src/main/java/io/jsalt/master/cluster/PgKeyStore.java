package io.jsalt.master.cluster;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.keys.SigningPins;
import io.jsalt.transport.message.MinionId;
import java.nio.file.Path;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The minions' keys of a cluster of masters, in the table {@code jsalt_keys}: a key accepted on any master is
 * accepted on all, and {@code jsalt-key} on any master lists the same. Reads (every return asks for its
 * minion's key) are answered from memory; the memory follows the table through {@link ClusterChanges}
 * (NOTIFY {@value #CHANNEL} with the id, sent at commit by the master that changed it). Each change runs in
 * one transaction under a lock on its id, so two masters acting on one id at once are put in order by the
 * database: a key pending on m1 and accepted on m2 ends accepted, not both; two masters seeing one new
 * minion write it once. An accepted row is signed with the master key (see {@link MasterSeal}); one that is
 * not is not believed. While the database is away the last known keys are served and changes are refused
 * ({@link ClusterException}). The signing pins are the cluster's too (the accepted row's {@code signs}): a
 * minion that signed on one master is held to signing on every master. Each accepted row's pin is sealed
 * with the cluster MAC ({@link ClusterSeal}) over the id, the key and {@code signs}: a pin whose seal does not
 * fit (cleared, or written by anything but a master) counts as signing, the strict side, so a database writer
 * without the master key cannot make a signing minion's unsigned returns be taken ({@link SealedPins}). A running
 * master never lowers a pin while the key stays the same.
 */
public final class PgKeyStore implements MinionKeys, ClusterChanges.Follower, SigningPins.Shared {
    public static final String CHANNEL = "jsalt_keys";
    private static final Logger LOG = LoggerFactory.getLogger(PgKeyStore.class);
    private static final String LABEL = "jsalt accepted minion key v1";

    private final Path pkiDir;
    private final SigningPins pins;
    private final ClusterDb db;
    private final MasterSeal seal;
    private final SealedPins sealedPins;
    private final String masterId;
    /** id → its keys by state, as last read; each value an unmodifiable map replaced whole. */
    private final Map<String, Map<KeyState, String>> byId = new ConcurrentHashMap<>();
    private final Map<KeyState, Set<String>> byState = new EnumMap<>(KeyState.class);
    /** The ids whose accepted key has signed a request (its row's {@code signs}): the cluster's signing pins. */
    private final Set<String> signs = ConcurrentHashMap.newKeySet();
    /** The accepted keys parsed, with the PEM each was parsed from. */
    private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();
    /**
     * The order of reads on the cluster connection: {@link ClusterDb} runs one piece of work at a time on one
     * connection, so a read numbered later saw the table at a later moment. Taken inside the work.
     */
    private final AtomicLong reads = new AtomicLong();
    /** id → the number of the read whose rows this master holds; guarded by {@code this}. */
    private final Map<String, Long> heldRead = new HashMap<>();
    private volatile Consumer<String> revokedElsewhere = id -> { };

    private record Parsed(String pem, PublicKey key) {}

    /** An id's rows as read: its keys by state, and whether its accepted key has signed. */
    private record IdRows(Map<KeyState, String> keys, boolean signs) {
        static final IdRows NONE = new IdRows(Map.of(), false);
    }

    /** An id's rows and the number of the read that saw them ({@link #reads}). */
    record Read(IdRows rows, long order) {}

    private PgKeyStore(Path pkiDir, ClusterDb db, MasterSeal seal, ClusterSeal mac, String masterId) {
        this.pkiDir = pkiDir;
        this.pins = SigningPins.sharedBy(this);
        this.db = db;
        this.seal = seal;
        this.sealedPins = new SealedPins(mac);
        this.masterId = masterId;
        for (KeyState s : KeyState.values()) {
            byState.put(s, new ConcurrentSkipListSet<>());
        }
    }

    /**
     * The cluster's keys, read now. The first master of a cluster brings its pki folder's keys into the empty
     * table (so one master becomes a cluster without accepting every key again); a later master's files are
     * left alone, with a WARN, since the table is what counts.
     */
    public static PgKeyStore open(Path pkiDir, ClusterDb db, MasterSeal seal, ClusterSeal mac, String masterId) {
        PgKeyStore store = new PgKeyStore(pkiDir, db, seal, mac, masterId);
        store.importFilesIfFirst();
        store.resync();
        return store;
    }

    /** Called with each id whose accepted key another master deleted, rejected or replaced. */
    public void whenRevokedElsewhere(Consumer<String> onRevoked) {
        this.revokedElsewhere = onRevoked;
    }

    @Override
    public Path pkiDir() {
        return pkiDir;
    }

    @Override
    public Optional<KeyState> stateOf(String id) {
        return lookup(id).map(StoredKey::state);
    }

    @Override
    public Optional<StoredKey> lookup(String id) {
        Map<KeyState, String> keys = byId.get(id);
        if (keys == null) {
            return Optional.empty();
        }
        for (KeyState s : KeyState.values()) {
            String pem = keys.get(s);
            if (pem != null) {
                return Optional.of(new StoredKey(s, pem));
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> pem(KeyState state, String id) {
        Map<KeyState, String> keys = byId.get(id);
        return keys == null ? Optional.empty() : Optional.ofNullable(keys.get(state));
    }

    @Override
    public Optional<PublicKey> acceptedKey(String id) {
        Optional<String> pem = pem(KeyState.ACCEPTED, id);
        if (pem.isEmpty()) {
            parsed.remove(id);
            return Optional.empty();
        }
        Parsed p = parsed.get(id);
        if (p != null && p.pem().equals(pem.get())) {
            return Optional.of(p.key());
        }
        try {
            PublicKey key = RsaKeys.parsePublicKey(pem.get());
            parsed.put(id, new Parsed(pem.get(), key));
            return Optional.of(key);
        } catch (CryptoException e) {
            return Optional.empty();
        }
    }

    @Override
    public void store(KeyState state, String id, String pem) {
        change(id, c -> {
            put(c, state, id, pem);
            return null;
        });
    }

    @Override
    public boolean storeIfNew(KeyState state, String id, String pem) {
        return change(id, c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM jsalt_keys WHERE id = ?"
                    + " AND state IN ('accepted', 'pending', 'rejected')")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            put(c, state, id, pem);
            return true;
        });
    }

    @Override
    public boolean move(String id, KeyState from, KeyState to) {
        return change(id, c -> {
            String pem;
            try (PreparedStatement s = c.prepareStatement("SELECT pem FROM jsalt_keys WHERE id = ? AND state = ?")) {
                s.setString(1, id);
                s.setString(2, name(from));
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    pem = rs.getString(1);
                }
            }
            remove(c, id, from);
            put(c, to, id, pem);
            return true;
        });
    }

    @Override
    public SigningPins signingPins() {
        return pins;
    }

    @Override
    public List<KeyState> delete(String id) {
        return change(id, c -> {
            List<KeyState> removed = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_keys WHERE id = ? RETURNING state")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        removed.add(state(rs.getString(1)));
                    }
                }
            }
            removed.sort(null);
            return removed;
        });
    }

    @Override
    public List<String> list(KeyState state) {
        return List.copyOf(byState.get(state));
    }

    @Override
    public boolean pinned(String id, String keyDigest) {
        return signs.contains(id) && acceptedKey(id).map(k -> SigningPins.digestOf(k).equals(keyDigest)).orElse(false);
    }

    /**
     * Marks the accepted row of {@code id} as signing, for every master; false when it was already, or when its
     * key is not the one of {@code keyDigest}. While the database is away the pin waits (a WARN): the next signed
     * request of the minion pins it.
     */
    @Override
    public boolean pin(String id, String keyDigest) {
        if (signs.contains(id)) {
            return false;
        }
        Optional<String> pem = pem(KeyState.ACCEPTED, id);
        if (pem.isEmpty() || !acceptedKey(id).map(k -> SigningPins.digestOf(k).equals(keyDigest)).orElse(false)) {
            return false;
        }
        try {
            return change(id, c -> {
                try (PreparedStatement s = c.prepareStatement("UPDATE jsalt_keys SET signs = true, signs_mac = ? WHERE id = ?"
                        + " AND state = 'accepted' AND pem = ? AND NOT signs")) {
                    s.setBytes(1, sealedPins.seal(id, pem.get(), true));
                    s.setString(2, id);
                    s.setString(3, pem.get());
                    return s.executeUpdate() == 1;
                }
            });
        } catch (ClusterException e) {
            LOG.warn("cluster: {} signs its requests, but the pin waits for the database: {}", id, e.getMessage());
            return false;
        }
    }

    /** A notification: the keys of one id changed; read them again. */
    @Override
    public void changed(String id) {
        if (!MinionId.isValid(id)) {
            return; // nothing this store wrote: ids are checked before every write
        }
        applyHeard(id, readHeard(id));
    }

    /** The first half of {@link #changed}: the rows of {@code id} now, numbered. */
    Read readHeard(String id) {
        return db.read(c -> new Read(rows(c, id), reads.incrementAndGet()));
    }

    /**
     * The second half of {@link #changed}. A change this master made meanwhile (on another thread) may hold
     * rows read later than these: then these are older and dropped, or an accepted key would seem revoked.
     */
    void applyHeard(String id, Read read) {
        apply(id, read, true);
    }

    /** Reads the whole table again (at start, and after the listening connection was lost). */
    @Override
    public void resync() {
        Map<String, Map<KeyState, String>> all = new HashMap<>();
        Set<String> signing = new HashSet<>();
        long order = db.read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT id, state, pem, sig, signs, signs_mac FROM jsalt_keys")) {
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String id = rs.getString(1);
                        if (MinionId.isValid(id) && row(all.computeIfAbsent(id, k -> new EnumMap<>(KeyState.class)), id,
                                rs.getString(2), rs.getString(3), rs.getBytes(4))
                                && sealedPins.signing(id, rs.getString(3), rs.getBoolean(5), rs.getBytes(6))) {
                            signing.add(id);
                        }
                    }
                }
            }
            return reads.incrementAndGet();
        });
        Set<String> ids = new HashSet<>(byId.keySet());
        ids.addAll(all.keySet());
        for (String id : ids) {
            Map<KeyState, String> keys = all.getOrDefault(id, Map.of());
            apply(id, new Read(keys.isEmpty() ? IdRows.NONE : new IdRows(keys, signing.contains(id)), order), true);
        }
    }

    private interface Change<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * One change in one transaction: the id locked (two masters changing one id wait for each other), the
     * change, the notification to every master, and the id's rows read back, which this master then holds.
     */
    private <T> T change(String id, Change<T> work) {
        MinionId.require(id);
        Read[] rowsAfter = new Read[1];
        T result = db.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('jsalt_keys'), hashtext(?))")) {
                lock.setString(1, id);
                lock.executeQuery().close();
            }
            T r = work.run(c);
            try (PreparedStatement n = c.prepareStatement("SELECT pg_notify('" + CHANNEL + "', ?)")) {
                n.setString(1, id);
                n.executeQuery().close();
            }
            // read in the transaction, numbered now: nothing else runs on the connection until the commit
            rowsAfter[0] = new Read(rows(c, id), reads.incrementAndGet());
            return r;
        });
        apply(id, rowsAfter[0], false);
        return result;
    }

    private void put(Connection c, KeyState state, String id, String pem) throws SQLException {
        remove(c, id, state);
        boolean accepted = state == KeyState.ACCEPTED;
        try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_keys (id, state, pem, sig, master_id, signs_mac)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
            s.setString(1, id);
            s.setString(2, name(state));
            s.setString(3, pem);
            s.setBytes(4, accepted ? seal.sign(LABEL, MasterSeal.utf8(id), MasterSeal.utf8(pem)) : null);
            s.setString(5, masterId);
            s.setBytes(6, accepted ? sealedPins.seal(id, pem, false) : null); // not signing yet, sealed as such
            s.executeUpdate();
        }
    }

    private static void remove(Connection c, String id, KeyState state) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_keys WHERE id = ? AND state = ?")) {
            s.setString(1, id);
            s.setString(2, name(state));
            s.executeUpdate();
        }
    }

    private IdRows rows(Connection c, String id) throws SQLException {
        Map<KeyState, String> out = new EnumMap<>(KeyState.class);
        boolean signing = false;
        try (PreparedStatement s = c.prepareStatement("SELECT state, pem, sig, signs, signs_mac FROM jsalt_keys WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    if (row(out, id, rs.getString(1), rs.getString(2), rs.getBytes(3))
                            && sealedPins.signing(id, rs.getString(2), rs.getBoolean(4), rs.getBytes(5))) {
                        signing = true;
                    }
                }
            }
        }
        return out.isEmpty() ? IdRows.NONE : new IdRows(out, signing);
    }

    /**
     * Keeps one row, unless it is an accepted key the master key did not sign (already known ones are not checked
     * again); true when the row kept is the accepted one.
     */
    private boolean row(Map<KeyState, String> into, String id, String stateName, String pem, byte[] sig) {
        KeyState state = state(stateName);
        if (state == KeyState.ACCEPTED && !pem.equals(pem(KeyState.ACCEPTED, id).orElse(null))
                && !seal.verify(sig, LABEL, MasterSeal.utf8(id), MasterSeal.utf8(pem))) {
            LOG.error("cluster: the accepted key of {} in jsalt_keys is not signed by the master key: ignored"
                    + " (written by something other than a master of this cluster)", id);
            return false;
        }
        into.put(state, pem);
        return state == KeyState.ACCEPTED;
    }

    /**
     * Holds {@code rows} as the keys of {@code id}, unless this master holds rows of a later read already (the
     * reads of a notification and of this master's own change may finish in either order). When the change was
     * heard from the database (another master's, or one missed) and took away or replaced an accepted key, this
     * master forgets what it knew of that minion too, as the master that made the change did.
     */
    private synchronized void apply(String id, Read fresh, boolean heard) {
        Long held = heldRead.get(id);
        if (held != null && held > fresh.order()) {
            return;
        }
        heldRead.put(id, fresh.order());
        IdRows read = fresh.rows();
        Map<KeyState, String> rows = read.keys();
        Map<KeyState, String> before = rows.isEmpty() ? byId.remove(id) : byId.put(id, Collections.unmodifiableMap(new EnumMap<>(rows)));
        String acceptedBefore = before == null ? null : before.get(KeyState.ACCEPTED);
        if (read.signs()) {
            signs.add(id);
        } else if (signs.contains(id) && acceptedBefore != null && acceptedBefore.equals(rows.get(KeyState.ACCEPTED))) {
            // a pin only goes with its key: "not signing" for a key this master knows has signed is an earlier
            // row put back (its seal was once real), not a change any master makes
            LOG.warn("cluster: the signing pin of {} reads as cleared for the same key: kept (an earlier row of jsalt_keys"
                    + " put back by something other than a master?)", id);
        } else {
            signs.remove(id);
        }
        for (KeyState s : KeyState.values()) {
            if (rows.containsKey(s)) {
                byState.get(s).add(id);
            } else {
                byState.get(s).remove(id);
            }
        }
        if (acceptedBefore != null && !acceptedBefore.equals(rows.get(KeyState.ACCEPTED))) {
            parsed.remove(id);
            if (heard) {
                LOG.info("cluster: the accepted key of {} was revoked on another master", id);
                revokedElsewhere.accept(id);
            }
        }
    }

    private void importFilesIfFirst() {
        KeyStore files = new KeyStore(pkiDir);
        Map<KeyState, List<String>> local = files.listAll();
        int count = local.values().stream().mapToInt(List::size).sum();
        if (count == 0) {
            return;
        }
        int imported = db.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('jsalt_keys'), 0)")) {
                lock.executeQuery().close();
            }
            try (PreparedStatement any = c.prepareStatement("SELECT 1 FROM jsalt_keys LIMIT 1"); ResultSet rs = any.executeQuery()) {
                if (rs.next()) {
                    return 0;
                }
            }
            int n = 0;
            for (Map.Entry<KeyState, List<String>> e : local.entrySet()) {
                for (String id : e.getValue()) {
                    Optional<String> pem = files.pem(e.getKey(), id);
                    if (pem.isPresent()) {
                        put(c, e.getKey(), id, pem.get());
                        n++;
                    }
                }
            }
            return n;
        });
        if (imported > 0) {
            LOG.warn("cluster: the first master of the cluster: {} minion keys of {} copied into jsalt_keys; from now on the"
                    + " database holds the keys of every master", imported, pkiDir);
        } else {
            LOG.warn("cluster: {} minion keys in {} are not used: the cluster's keys are in jsalt_keys (jsalt-key lists them)",
                    count, pkiDir);
        }
    }

    private static String name(KeyState s) {
        return s.label();
    }

    private static KeyState state(String label) {
        return switch (label.toLowerCase(Locale.ROOT)) {
            case "accepted" -> KeyState.ACCEPTED;
            case "pending" -> KeyState.PENDING;
            case "rejected" -> KeyState.REJECTED;
            case "denied" -> KeyState.DENIED;
            default -> throw new IllegalStateException("jsalt_keys holds an unknown state: " + label);
        };
    }
}
