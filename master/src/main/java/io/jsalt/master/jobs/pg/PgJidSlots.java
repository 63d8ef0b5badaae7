package io.jsalt.master.jobs.pg;

import io.jsalt.master.jobs.Jids;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalInt;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slots that keep the jids of masters sharing one database apart ({@code jsalt_masters}): each running
 * master holds one of {@value #SLOTS}, renewed every minute; a slot not renewed for
 * {@value #LEASE_MINUTES} minutes (its master stopped, or lost the database that long) may be taken by
 * another. Claimed under a lock, so two masters starting together get two slots.
 */
final class PgJidSlots {
    /** How many masters can share a database with jids kept apart; a jid's time is then exact to 16 µs. */
    static final int SLOTS = 16;
    static final int LEASE_MINUTES = 10;
    private static final Logger LOG = LoggerFactory.getLogger(PgJidSlots.class);

    private final Jids jids;
    private final String masterId;
    private final String where;
    /** This process in jsalt_masters: a restarted master is another instance. */
    private final String instance = UUID.randomUUID().toString();
    /** The slot held; -1 for none yet, -2 when none was free. Used by the job cache's writer thread only. */
    private int slot = -1;

    /** The slot of master {@code masterId}, given to {@code jids}; {@code where} names the database in messages. */
    PgJidSlots(Jids jids, String masterId, String where) {
        this.jids = jids;
        this.masterId = masterId;
        this.where = where;
    }

    /** Keeps this master's slot, or takes a new one if it was lost (a long outage); any failure is logged, not thrown. */
    void renew(Connection c) {
        try {
            OptionalInt held = claim(c, masterId, instance);
            if (held.isEmpty()) {
                if (slot != -2) {
                    LOG.error("job cache: all {} jid slots of {} are held by running masters; this master's jids may equal"
                            + " another's", SLOTS, where);
                }
                slot = -2;
            } else if (held.getAsInt() != slot) {
                slot = held.getAsInt();
                jids.useSlot(slot, SLOTS);
                LOG.info("job cache: jid slot {} of {} (jids of masters on {} never collide)", slot, SLOTS, where);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("job cache: the jid slot could not be renewed: {}", e.toString()); // a scheduled task must not die
        }
    }

    /** Gives the slot back at a clean stop. */
    void release(Connection c) {
        if (slot < 0) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_masters WHERE instance = ?")) {
            s.setString(1, instance);
            s.executeUpdate();
        } catch (SQLException e) {
            LOG.debug("job cache: the jid slot stays held until its lease ends: {}", e.getMessage());
        }
    }

    /**
     * Renews the slot {@code instance} holds, or claims the lowest free one; empty when all are held.
     * Called on the job cache's writer connection, outside any transaction.
     */
    private static OptionalInt claim(Connection c, String masterId, String instance) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('jsalt_masters'))")) {
                lock.executeQuery().close();
            }
            try (PreparedStatement renew = c.prepareStatement("UPDATE jsalt_masters SET seen = now() WHERE instance = ? RETURNING slot")) {
                renew.setString(1, instance);
                try (ResultSet rs = renew.executeQuery()) {
                    if (rs.next()) {
                        int slot = rs.getInt(1);
                        c.commit();
                        return OptionalInt.of(slot);
                    }
                }
            }
            try (PreparedStatement stale = c.prepareStatement("DELETE FROM jsalt_masters WHERE seen < now() - make_interval(mins => ?)")) {
                stale.setInt(1, LEASE_MINUTES);
                stale.executeUpdate();
            }
            try (PreparedStatement take = c.prepareStatement("INSERT INTO jsalt_masters (slot, master_id, instance, seen)"
                    + " SELECT s, ?, ?, now() FROM generate_series(0, ?) s WHERE s NOT IN (SELECT slot FROM jsalt_masters)"
                    + " ORDER BY s LIMIT 1 RETURNING slot")) {
                take.setString(1, masterId);
                take.setString(2, instance);
                take.setInt(3, SLOTS - 1);
                try (ResultSet rs = take.executeQuery()) {
                    OptionalInt slot = rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
                    c.commit();
                    return slot;
                }
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the first failure is the one to report
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

}
