package io.jsalt.master.jobs.pg;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One transaction on a connection that is otherwise in auto-commit mode: committed when the work returns,
 * rolled back when it throws (the work's failure is the one reported), and the connection back in auto-commit
 * either way, so the next statement on it does not run inside a transaction left open.
 */
public final class PgTransaction {
    /** Work done inside the transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private PgTransaction() {
    }

    public static <T> T run(Connection c, Work<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run(c);
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the first failure is the one to report
            }
            throw e;
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // a broken connection is found by its next use
            }
        }
    }
}
