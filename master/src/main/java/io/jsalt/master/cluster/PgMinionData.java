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

/**
 * The minions' grains of a cluster, in {@code jsalt_minion_data} (jsonb, so an operator can query them with
 * SQL), so that a grain target resolves the same on every master. The rule that signed grains only move
 * forward is the database's: the upsert does not replace verified grains with unverified ones, nor with
 * verified ones stamped earlier, whichever master sends them. Each change is announced with NOTIFY
 * {@value #CHANNEL} (the id), and every master's {@link MinionDataCache} reads that id again.
 */
public final class PgMinionData implements SharedMinionData, ClusterChanges.Follower {
    public static final String CHANNEL = "jsalt_minion_data";

    private final ClusterDb db;
    private final String masterId;
    private volatile MinionDataCache cache;

    public PgMinionData(ClusterDb db, String masterId) {
        this.db = db;
        this.masterId = masterId;
    }

    /** The cache to tell of other masters' changes. */
    public void follow(MinionDataCache follower) {
        this.cache = follower;
    }

    @Override
    public Map<String, Stored> readAll() {
        return db.read(c -> {
            Map<String, Stored> out = new HashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT id, grains, verified, stamp FROM jsalt_minion_data");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    Optional<Stored> d = stored(rs);
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
            try (PreparedStatement s = c.prepareStatement("SELECT id, grains, verified, stamp FROM jsalt_minion_data WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? stored(rs) : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean write(String id, Stored data) {
        return db.inTransaction(c -> {
            int changed;
            try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_minion_data AS d (id, grains, verified, stamp, master_id)"
                    + " VALUES (?, ?::jsonb, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET grains = EXCLUDED.grains,"
                    + " verified = EXCLUDED.verified, stamp = EXCLUDED.stamp, master_id = EXCLUDED.master_id, changed = now()"
                    // signed grains only move forward, as MinionDataCache decides for one master
                    + " WHERE NOT (d.verified AND NOT EXCLUDED.verified)"
                    + " AND NOT (d.verified AND d.stamp IS NOT NULL AND (EXCLUDED.stamp IS NULL OR EXCLUDED.stamp < d.stamp))")) {
                s.setString(1, id);
                s.setString(2, PgJson.write(data.grains()));
                s.setBoolean(3, data.verified());
                if (data.stamp() == null) {
                    s.setNull(4, java.sql.Types.BIGINT);
                } else {
                    s.setLong(4, data.stamp());
                }
                s.setString(5, masterId);
                changed = s.executeUpdate();
            }
            if (changed == 1) {
                notify(c, id);
            }
            return changed == 1;
        });
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

    private static Optional<Stored> stored(ResultSet rs) throws SQLException {
        if (!(PgJson.read(rs.getString(2)) instanceof Map<?, ?> m)) {
            return Optional.empty();
        }
        Map<String, Object> grains = new LinkedHashMap<>();
        m.forEach((k, v) -> grains.put(String.valueOf(k), v));
        long stamp = rs.getLong(4);
        return Optional.of(new Stored(grains, rs.getBoolean(3), rs.wasNull() ? null : stamp));
    }
}
