package io.jsalt.master.cluster;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which minions each master of a cluster sees present, and when a master last saw each, in
 * {@code jsalt_presence (id, master_id, seen)}: every maintenance round a master writes the minions present on
 * it now (their {@code seen} becomes now) and drops those it no longer sees, so {@code manage.present} on any
 * master answers for the whole cluster, and {@code seen} tells an operator when a minion was last connected
 * anywhere. A master that stops cleanly drops its rows; one that dies leaves rows that stop counting once
 * they are older than the freshness asked for (three maintenance rounds).
 */
public final class PgPresence {
    private static final Logger LOG = LoggerFactory.getLogger(PgPresence.class);

    private final ClusterDb db;
    private final String masterId;

    PgPresence(ClusterDb db, String masterId) {
        this.db = db;
        this.masterId = masterId;
    }

    /** Writes the minions present on this master now; an outage costs a WARN (the next round writes again). */
    public void publish(Set<String> presentHere) {
        try {
            db.inTransaction(c -> {
                Array ids = c.createArrayOf("varchar", presentHere.toArray());
                try (PreparedStatement gone = c.prepareStatement("DELETE FROM jsalt_presence WHERE master_id = ? AND NOT (id = ANY(?))")) {
                    gone.setString(1, masterId);
                    gone.setArray(2, ids);
                    gone.executeUpdate();
                }
                try (PreparedStatement seen = c.prepareStatement("INSERT INTO jsalt_presence (id, master_id, seen)"
                        + " SELECT unnest(?::varchar[]), ?, now() ON CONFLICT (id, master_id) DO UPDATE SET seen = now()")) {
                    seen.setArray(1, ids);
                    seen.setString(2, masterId);
                    seen.executeUpdate();
                }
                return null;
            });
        } catch (ClusterException e) {
            LOG.warn("cluster: this master's minions not shared as present this round: {}", e.getMessage());
        }
    }

    /**
     * The minions other masters saw present within {@code fresh}; while the database is away, none (the
     * caller answers with this master's own, and says so).
     */
    public Set<String> elsewhere(Duration fresh) {
        try {
            return db.read(c -> {
                Set<String> out = new TreeSet<>();
                try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT id FROM jsalt_presence WHERE master_id <> ?"
                        + " AND seen > now() - make_interval(secs => ?)")) {
                    s.setString(1, masterId);
                    s.setLong(2, Math.max(1, fresh.toSeconds()));
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    }
                }
                return out;
            });
        } catch (ClusterException e) {
            LOG.warn("cluster: presence answered with this master's minions only: {}", e.getMessage());
            return Set.of();
        }
    }

    /** A clean stop: this master's minions no longer count as present through it. */
    void withdraw() {
        try {
            db.inTransaction(c -> {
                try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_presence WHERE master_id = ?")) {
                    s.setString(1, masterId);
                    s.executeUpdate();
                }
                return null;
            });
        } catch (ClusterException e) {
            LOG.debug("cluster: presence rows stay until they are stale: {}", e.getMessage());
        }
    }
}
