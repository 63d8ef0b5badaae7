package io.jsalt.master.cluster;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Crypticle;
import io.jsalt.master.session.SessionKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AES session key of a cluster, one for every master, in {@code jsalt_session_keys}: each generation
 * sealed to the master public key (RSA-OAEP: only a holder of master.pem can read it) and signed by the master
 * key over its generation and sealed bytes (a row nobody with master.pem wrote is not used). A rotation (a
 * key deleted or rejected on any master, or {@code publish_session}) writes the next generation under a lock
 * and sends NOTIFY {@value #CHANNEL}; every master adopts the newest generation it hears of, and never goes
 * back to an older one. While the database is away a rotation asked for by a revoked key is made here alone
 * (so the revoked minion is shut out of this master at once) and made for the cluster once the database is back.
 */
public final class ClusterSessionKey implements SessionKey.Sharing, ClusterChanges.Follower {
    public static final String CHANNEL = "jsalt_session";
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSessionKey.class);
    private static final String LABEL = "jsalt session key v1";
    /** Generations kept besides the newest: a master slow to hear of a rotation still finds the one it holds. */
    private static final int KEEP = 2;

    private final ClusterDb db;
    private final MasterSeal seal;
    private final SessionKey key;
    private final String masterId;
    /** The generation in use here; guarded by this. */
    private long generation;
    /** A rotation that could not reach the database, made again once it is back; guarded by this. */
    private String owed;

    private ClusterSessionKey(ClusterDb db, MasterSeal seal, SessionKey key, String masterId) {
        this.db = db;
        this.seal = seal;
        this.key = key;
        this.masterId = masterId;
    }

    /** Adopts the cluster's newest key, or makes the first; from now on {@code key} rotates through the database. */
    public static ClusterSessionKey open(ClusterDb db, MasterSeal seal, SessionKey key, String masterId) {
        ClusterSessionKey shared = new ClusterSessionKey(db, seal, key, masterId);
        if (!shared.adoptNewest()) {
            shared.rotate("the first master of the cluster");
        }
        key.shareThrough(shared);
        return shared;
    }

    /** The generation in use on this master. */
    public synchronized long generation() {
        return generation;
    }

    @Override
    public synchronized void rotate(String reason) {
        try {
            write(reason, null);
        } catch (ClusterException e) {
            owed = reason;
            key.rotateHere(reason + "; on this master alone until the cluster database is back: " + e.getMessage());
            LOG.error("cluster: the new session key could not be shared ({}); the other masters get one when the database is back",
                    e.getMessage());
        }
    }

    @Override
    public synchronized void rotateScheduled(Duration period, String reason) {
        try {
            write(reason, period.dividedBy(2));
        } catch (ClusterException e) {
            LOG.warn("cluster: the scheduled session key rotation waits for the database: {}", e.getMessage());
        }
    }

    /** NOTIFY: another generation was written. */
    @Override
    public synchronized void changed(String payload) {
        adoptNewest();
    }

    /** After the listener's connection came back: adopt what was made meanwhile, and share what this master owes. */
    @Override
    public synchronized void resync() {
        if (owed != null) {
            String reason = owed;
            write(reason + " (made while the database was away)", null);
            owed = null;
        } else {
            adoptNewest();
        }
    }

    /**
     * Writes generation n+1 (unless {@code unlessYoungerThan} is given and the newest is younger), notifies,
     * and uses it here.
     */
    private void write(String reason, Duration unlessYoungerThan) {
        String made = Crypticle.generateKeyString();
        Optional<Long> written = db.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('" + CHANNEL + "'))")) {
                lock.executeQuery().close();
            }
            long newest = 0;
            try (PreparedStatement s = c.prepareStatement("SELECT generation, extract(epoch FROM now() - created)"
                    + " FROM jsalt_session_keys ORDER BY generation DESC LIMIT 1"); ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    newest = rs.getLong(1);
                    if (unlessYoungerThan != null && rs.getDouble(2) * 1000 < unlessYoungerThan.toMillis()) {
                        return Optional.<Long>empty();
                    }
                }
            }
            long next = newest + 1;
            byte[] sealed = seal.seal(made.getBytes(StandardCharsets.US_ASCII));
            try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_session_keys (generation, sealed, sig, reason, master_id)"
                    + " VALUES (?, ?, ?, ?, ?)")) {
                s.setLong(1, next);
                s.setBytes(2, sealed);
                s.setBytes(3, seal.sign(LABEL, number(next), sealed));
                s.setString(4, reason.length() > 500 ? reason.substring(0, 500) : reason);
                s.setString(5, masterId);
                s.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_session_keys WHERE generation < ?")) {
                s.setLong(1, next - KEEP);
                s.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement("SELECT pg_notify('" + CHANNEL + "', ?)")) {
                s.setString(1, Long.toString(next));
                s.executeQuery().close();
            }
            return Optional.of(next);
        });
        if (written.isPresent()) {
            generation = written.get();
            key.adopt(made, reason + "; generation " + generation + " for every master of the cluster");
        } else {
            adoptNewest();
        }
    }

    /** Adopts the newest generation if it is newer than the one in use and a master wrote it; false when there is none. */
    private boolean adoptNewest() {
        Optional<Row> newest = db.read(ClusterSessionKey::newest);
        if (newest.isEmpty()) {
            return false;
        }
        Row row = newest.get();
        if (row.generation() <= generation) {
            return true;
        }
        if (!seal.verify(row.sig(), LABEL, number(row.generation()), row.sealed())) {
            LOG.error("cluster: session key generation {} in jsalt_session_keys is not signed by the master key: not used",
                    row.generation());
            return true;
        }
        String keyString;
        try {
            keyString = new String(seal.open(row.sealed()), StandardCharsets.US_ASCII);
            new Crypticle(keyString); // it must be a key
        } catch (CryptoException | IllegalArgumentException e) {
            LOG.error("cluster: session key generation {} does not open with the master key: not used", row.generation());
            return true;
        }
        generation = row.generation();
        key.adopt(keyString, "generation " + generation + " of the cluster, made by " + row.masterId() + ": " + row.reason());
        return true;
    }

    private record Row(long generation, byte[] sealed, byte[] sig, String reason, String masterId) {}

    private static Optional<Row> newest(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT generation, sealed, sig, reason, master_id FROM jsalt_session_keys"
                + " ORDER BY generation DESC LIMIT 1"); ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(new Row(rs.getLong(1), rs.getBytes(2), rs.getBytes(3), rs.getString(4), rs.getString(5)))
                    : Optional.empty();
        }
    }

    private static byte[] number(long n) {
        return ByteBuffer.allocate(Long.BYTES).putLong(n).array();
    }
}
