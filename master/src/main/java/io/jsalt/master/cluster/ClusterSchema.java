package io.jsalt.master.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tables a cluster of masters shares beside Salt's pgjsonb tables, created when missing (under the
 * job cache schema's advisory lock, so masters starting together do not race):
 * <ul>
 * <li>{@code jsalt_cluster}: facts about the cluster, {@code name → value}: its {@code cluster_id} and the
 * master public key every master must hold the private half of;</li>
 * <li>{@code jsalt_keys}: the minions' keys, one row per (id, state), as Salt's pki folders hold one file per
 * id and folder; an accepted row carries the master key's signature, so a row written by anyone else is not
 * believed; {@code signs} marks an accepted key whose minion has signed (the signing pin, MinionTrust), sealed with the cluster
 * MAC in {@code signs_mac};</li>
 * <li>{@code jsalt_session_keys}: the AES session key, one row per generation, sealed to the master public
 * key (RSA-OAEP) and signed by the master key; only masters can read it, only masters can make one;</li>
 * <li>{@code jsalt_minion_data}: each minion's last grains, as the master's minion data cache keeps them, sealed
 * with the cluster MAC ({@link ClusterSeal});</li>
 * <li>{@code jsalt_presence}: which master saw which minion present, and when last.</li>
 * </ul>
 * (The jid slots of masters sharing a job cache, {@code jsalt_masters}, are the job cache's: PgSchema.)
 */
public final class ClusterSchema {
    static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS jsalt_cluster (name varchar(64) PRIMARY KEY, value text NOT NULL,"
                + " changed timestamptz NOT NULL DEFAULT now())",
        "CREATE TABLE IF NOT EXISTS jsalt_keys (id varchar(255) NOT NULL, state varchar(16) NOT NULL"
                + " CHECK (state IN ('accepted', 'pending', 'rejected', 'denied')), pem text NOT NULL, sig bytea,"
                + " changed timestamptz NOT NULL DEFAULT now(), master_id varchar(255) NOT NULL, PRIMARY KEY (id, state))",
        // the signing pin of an accepted key: its minion has signed a request with it (MinionTrust)
        "ALTER TABLE jsalt_keys ADD COLUMN IF NOT EXISTS signs boolean NOT NULL DEFAULT false",
        // the cluster MAC of the pin (ClusterSeal): id, key, signs; one that does not fit counts as signing
        "ALTER TABLE jsalt_keys ADD COLUMN IF NOT EXISTS signs_mac bytea",
        "CREATE TABLE IF NOT EXISTS jsalt_session_keys (generation bigint PRIMARY KEY, sealed bytea NOT NULL,"
                + " sig bytea NOT NULL, reason text NOT NULL, master_id varchar(255) NOT NULL,"
                + " created timestamptz NOT NULL DEFAULT now())",
        "CREATE TABLE IF NOT EXISTS jsalt_minion_data (id varchar(255) PRIMARY KEY, grains jsonb NOT NULL,"
                + " verified boolean NOT NULL, stamp bigint, changed timestamptz NOT NULL DEFAULT now(),"
                + " master_id varchar(255) NOT NULL)",
        // the cluster MAC of the row (ClusterSeal): a row without a valid one is not believed
        "ALTER TABLE jsalt_minion_data ADD COLUMN IF NOT EXISTS mac bytea",
        "CREATE TABLE IF NOT EXISTS jsalt_presence (id varchar(255) NOT NULL, master_id varchar(255) NOT NULL,"
                + " seen timestamptz NOT NULL, PRIMARY KEY (id, master_id))",
        // the cluster MAC over id, master_id and seen (ClusterSeal): a row without a valid one does not count
        "ALTER TABLE jsalt_presence ADD COLUMN IF NOT EXISTS mac bytea",
    };

    private ClusterSchema() {
    }

    private static boolean hasColumn(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
                + " AND table_name = ? AND column_name = ?")) {
            s.setString(1, table);
            s.setString(2, column);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Creates what is missing, in one transaction, under the schema's advisory lock. A cluster's table of keys
     * made by an earlier version gets its signing pins sealed with {@code mac} as they stand, in the same
     * transaction (else every pin would count as signing).
     */
    public static void ensure(Connection c, ClusterSeal mac) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(7465371019)"); // the lock of PgSchema: one schema change at a time
            boolean pinsSealed = hasColumn(c, "jsalt_keys", "signs_mac");
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            if (!pinsSealed) {
                SealedPins.sealAtUpgrade(c, mac);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
