package io.jsalt.master.cluster;

import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Which cluster a database serves and which master key its masters hold, in {@code jsalt_cluster}: the first
 * master writes its {@code cluster_id} and master public key; every later one must bring the same, or it is
 * refused with the reason. The master's private key never goes to the database: an operator copies
 * {@code master.pem} and {@code master.pub} to each master of a cluster, as Salt's multi-master asks, and the
 * database holds only the public half to compare with.
 */
final class ClusterIdentity {
    private ClusterIdentity() {
    }

    /** @throws ClusterException naming both fingerprints, or both names, on a mismatch */
    static void claimOrCheck(ClusterDb db, String clusterId, PublicKey masterPub) {
        String pem = RsaKeys.publicKeyPem(masterPub);
        db.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('jsalt_cluster'))")) {
                lock.executeQuery().close();
            }
            String name = claim(c, "cluster_id", clusterId);
            if (!name.equals(clusterId)) {
                throw new ClusterException("this database serves cluster_id '" + name + "', not '" + clusterId
                        + "': one database per cluster (or set cluster_id: " + name + ")");
            }
            String cluster = claim(c, "master_pub", pem);
            if (!RsaKeys.parsePublicKey(cluster).equals(masterPub)) {
                throw new ClusterException("the master key in this master's pki_dir (" + Fingerprint.sha256(pem)
                        + ") is not the cluster's (" + Fingerprint.sha256(cluster) + "): copy master.pem and master.pub"
                        + " from a master of cluster '" + clusterId + "' into pki_dir before starting");
            }
            return null;
        });
    }

    /** The value of {@code name}, written as {@code value} if there was none. */
    private static String claim(Connection c, String name, String value) throws SQLException {
        Optional<String> now = read(c, name);
        if (now.isPresent()) {
            return now.get();
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_cluster (name, value) VALUES (?, ?)")) {
            s.setString(1, name);
            s.setString(2, value);
            s.executeUpdate();
        }
        return value;
    }

    private static Optional<String> read(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT value FROM jsalt_cluster WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
