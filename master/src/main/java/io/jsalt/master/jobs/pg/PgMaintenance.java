package io.jsalt.master.jobs.pg;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** Retention ({@code keep_jobs_seconds}) and the per-minion quota, as SQL over Salt's pgjsonb tables. */
final class PgMaintenance {
    private PgMaintenance() {
    }

    /** Keeps each minion's newest {@code max} returns; the usual "nobody is over" is answered from the (id, alter_time) index. */
    static int trim(Connection c, int max) throws SQLException {
        try (PreparedStatement over = c.prepareStatement("SELECT 1 FROM salt_returns GROUP BY id HAVING count(*) > ? LIMIT 1")) {
            over.setInt(1, max);
            try (ResultSet rs = over.executeQuery()) {
                if (!rs.next()) {
                    return 0;
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement("DELETE FROM salt_returns WHERE seq IN (SELECT seq FROM"
                + " (SELECT seq, row_number() OVER (PARTITION BY id ORDER BY alter_time DESC, seq DESC) AS newest"
                + " FROM salt_returns) ranked WHERE newest > ?)")) {
            s.setInt(1, max);
            return s.executeUpdate();
        }
    }

    /**
     * Forgets jobs started before the cutoff with their returns, returns of unknown jobs and events older
     * than it, in one transaction: no reader sees a job without the returns it had.
     *
     * @return how many jobs were forgotten
     */
    static int prune(Connection c, Instant cutoff) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement returns = c.prepareStatement("DELETE FROM salt_returns r USING jids j"
                + " WHERE r.jid = j.jid AND j.started < ?");
             PreparedStatement orphans = c.prepareStatement("DELETE FROM salt_returns r WHERE r.alter_time < ?"
                     + " AND NOT EXISTS (SELECT 1 FROM jids j WHERE j.jid = r.jid)");
             PreparedStatement jobs = c.prepareStatement("DELETE FROM jids WHERE started < ?");
             PreparedStatement events = c.prepareStatement("DELETE FROM salt_events WHERE alter_time < ?")) {
            for (PreparedStatement s : new PreparedStatement[] {returns, orphans, jobs, events}) {
                s.setObject(1, PgRows.time(cutoff));
            }
            returns.executeUpdate();
            orphans.executeUpdate();
            int pruned = jobs.executeUpdate();
            events.executeUpdate();
            c.commit();
            return pruned;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
