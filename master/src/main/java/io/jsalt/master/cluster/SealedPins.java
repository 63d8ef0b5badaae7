package io.jsalt.master.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seal of a signing pin in {@code jsalt_keys} ({@code signs_mac}): the cluster MAC ({@link ClusterSeal}) over
 * the id, its accepted key (PEM) and {@code signs}. Every accepted row is sealed when written (not signing yet),
 * and again when its minion is pinned. A pin whose seal does not fit (cleared, set, or copied from another row
 * by anything but a master) counts as signing: the strict side, so a database writer without the master key
 * cannot make unsigned returns under a signing minion's id be taken.
 */
final class SealedPins {
    private static final Logger LOG = LoggerFactory.getLogger(SealedPins.class);
    private static final String LABEL = "jsalt signing pin v1";

    private final ClusterSeal mac;

    SealedPins(ClusterSeal mac) {
        this.mac = mac;
    }

    byte[] seal(String id, String pem, boolean signs) {
        return mac.mac(LABEL, id, pem, signs);
    }

    /** Whether the accepted key {@code pem} of {@code id} has signed: {@code signs} when the seal fits, else true. */
    boolean signing(String id, String pem, boolean signs, byte[] sealed) {
        if (mac.valid(sealed, LABEL, id, pem, signs)) {
            return signs;
        }
        LOG.warn("cluster: the signing pin of {} in jsalt_keys is not sealed by a master of this cluster: counted as"
                + " signing, unsigned returns under its id are refused (written by something other than a master)", id);
        return true;
    }

    /**
     * Seals the pins of the accepted rows as they are, once: when the {@code signs_mac} column is added to a
     * cluster's existing table (an upgrade), in the transaction that adds it. Rows are believed as they stand
     * at that moment, as an earlier version believed them.
     */
    static void sealAtUpgrade(Connection c, ClusterSeal mac) throws SQLException {
        SealedPins pins = new SealedPins(mac);
        record Row(String id, String pem, boolean signs) {}
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT id, pem, signs FROM jsalt_keys WHERE state = 'accepted'");
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(rs.getString(1), rs.getString(2), rs.getBoolean(3)));
            }
        }
        try (PreparedStatement u = c.prepareStatement("UPDATE jsalt_keys SET signs_mac = ? WHERE id = ? AND state = 'accepted'")) {
            for (Row r : rows) {
                u.setBytes(1, pins.seal(r.id(), r.pem(), r.signs()));
                u.setString(2, r.id());
                u.addBatch();
            }
            u.executeBatch();
        }
        if (!rows.isEmpty()) {
            LOG.warn("cluster: the signing pins of {} accepted keys sealed as they stand (upgrade of jsalt_keys)", rows.size());
        }
    }
}
