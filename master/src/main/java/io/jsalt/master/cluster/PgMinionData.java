package io.jsalt.master.cluster;

import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.data.SharedMinionData;
import io.jsalt.master.jobs.pg.PgJson;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The minions' grains of a cluster, in {@code jsalt_minion_data} (jsonb, so an operator can query them with
 * SQL), so that a grain target resolves the same on every master. The rule that signed grains only move
 * forward is the database's: the upsert does not replace verified grains with unverified ones, nor with
 * verified ones stamped earlier, whichever master sends them. Each change is announced with NOTIFY
 * {@value #CHANNEL} (the id), and every master's {@link MinionDataCache} reads that id again.
 *
 * <p>Each row carries the cluster MAC ({@link ClusterSeal}) over its id, grains, verified flag and stamp: a row
 * written by anything but a master of the cluster is read as absent (WARN), so forged grains are neither targeted
 * nor counted as verified, and the minion's next report replaces such a row whatever it claims.
 */
public final class PgMinionData implements SharedMinionData, ClusterChanges.Follower {
    public static final String CHANNEL = "jsalt_minion_data";
    private static final Logger LOG = LoggerFactory.getLogger(PgMinionData.class);
    private static final String LABEL = "jsalt minion grains v1";

    private final ClusterDb db;
    private final String masterId;
    private final ClusterSeal seal;
    private volatile MinionDataCache cache;

    public PgMinionData(ClusterDb db, String masterId, ClusterSeal seal) {
        this.db = db;
        this.masterId = masterId;
        this.seal = seal;
    }

    /** The cache to tell of other masters' changes. */
    public void follow(MinionDataCache follower) {
        this.cache = follower;
    }

    @Override
    public Map<String, Stored> readAll() {
        return db.read(c -> {
            Map<String, Stored> out = new HashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT id, grains, verified, stamp, mac FROM jsalt_minion_data");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    Optional<Stored> d = stored(id, rs);
                    if (d.isPresent()) {
                        out.put(id, d.get());
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Optional<Stored> read(String id) {
        return db.read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT id, grains, verified, stamp, mac FROM jsalt_minion_data WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? stored(id, rs) : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean write(String id, Stored data) {
        String json = PgJson.write(data.grains());
        // sealed as the database will give it back: the grains as read from the JSON written
        byte[] mac = seal.mac(LABEL, id, PgJson.read(json), data.verified(), data.stamp());
        return db.inTransaction(c -> {
            int changed = upsert(c, id, json, data, mac, true);
            if (changed == 0 && !sealedRow(c, id)) {
                // the row that blocks these grains was not written by a master: it counts for nothing
                LOG.warn("cluster: the grains of {} in jsalt_minion_data are not sealed by a master of this cluster: replaced", id);
                changed = upsert(c, id, json, data, mac, false);
            }
            if (changed == 1) {
                notify(c, id);
            }
            return changed == 1;
        });
    }

    private int upsert(java.sql.Connection c, String id, String json, Stored data, byte[] mac, boolean onlyForward) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_minion_data AS d (id, grains, verified, stamp, master_id, mac)"
                + " VALUES (?, ?::jsonb, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET grains = EXCLUDED.grains,"
                + " verified = EXCLUDED.verified, stamp = EXCLUDED.stamp, master_id = EXCLUDED.master_id, mac = EXCLUDED.mac,"
                + " changed = now()"
                // signed grains only move forward, as MinionDataCache decides for one master
                + (onlyForward ? " WHERE NOT (d.verified AND NOT EXCLUDED.verified)"
                        + " AND NOT (d.verified AND d.stamp IS NOT NULL AND (EXCLUDED.stamp IS NULL OR EXCLUDED.stamp < d.stamp))" : ""))) {
            s.setString(1, id);
            s.setString(2, json);
            s.setBoolean(3, data.verified());
            if (data.stamp() == null) {
                s.setNull(4, java.sql.Types.BIGINT);
            } else {
                s.setLong(4, data.stamp());
            }
            s.setString(5, masterId);
            s.setBytes(6, mac);
            return s.executeUpdate();
        }
    }

    /** True when the row of {@code id} (locked until the commit) carries a valid seal. */
    private boolean sealedRow(java.sql.Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id, grains, verified, stamp, mac FROM jsalt_minion_data WHERE id = ? FOR UPDATE")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return !rs.next() || unsealed(id, rs).isPresent();
            }
        }
    }

    @Override
    public void remove(String id) {
        db.inTransaction(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_minion_data WHERE id = ?")) {
                s.setString(1, id);
                if (s.executeUpdate() > 0) {
                    notify(c, id);
                }
            }
            return null;
        });
    }

    @Override
    public void changed(String id) {
        MinionDataCache c = cache;
        if (c != null) {
            c.reload(id);
        }
    }

    @Override
    public void resync() {
        MinionDataCache c = cache;
        if (c != null) {
            c.reloadAll();
        }
    }

    private static void notify(java.sql.Connection c, String id) throws SQLException {
        try (PreparedStatement n = c.prepareStatement("SELECT pg_notify('" + CHANNEL + "', ?)")) {
            n.setString(1, id);
            n.executeQuery().close();
        }
    }

    /** The row's grains when its seal is valid; empty, with a WARN, when it is not (a row no master wrote). */
    private Optional<Stored> stored(String id, ResultSet rs) throws SQLException {
        Optional<Stored> d = unsealed(id, rs);
        if (d.isEmpty()) {
            LOG.warn("cluster: the grains of {} in jsalt_minion_data are not sealed by a master of this cluster: ignored"
                    + " (written by something other than a master)", id);
        }
        return d;
    }

    /** The row's grains when it is sealed (columns id, grains, verified, stamp, mac), else empty. */
    private Optional<Stored> unsealed(String id, ResultSet rs) throws SQLException {
        Object read = PgJson.read(rs.getString(2));
        boolean verified = rs.getBoolean(3);
        // getObject: a NULL stamp (a minion that does not stamp) stays null, never 0, which would make its next report "older"
        Long stamp = rs.getObject(4, Long.class);
        if (!(read instanceof Map<?, ?> m) || !seal.valid(rs.getBytes(5), LABEL, id, read, verified, stamp)) {
            return Optional.empty();
        }
        Map<String, Object> grains = new LinkedHashMap<>();
        m.forEach((k, v) -> grains.put(String.valueOf(k), v));
        return Optional.of(new Stored(grains, verified, stamp));
    }
}
