package io.jsalt.master.cluster;

import io.jsalt.master.jobs.pg.PgConnector;
import io.jsalt.master.jobs.pg.PgTransaction;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The connection through which this master reads and changes the cluster's shared state (keys, session key,
 * grains): one at a time (a JDBC connection serves one thread), opened when first needed and opened again
 * after a failure, so an outage costs the callers of that moment an error and nothing more. Changes run in
 * one transaction each. The notifications that tell the other masters go out at commit
 * ({@code pg_notify} in the same transaction), so no master hears of a change it cannot read yet.
 */
public final class ClusterDb implements AutoCloseable {
    private final PgConnector connector;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}; null until needed, or after a failure. */
    private Connection connection;
    private volatile boolean closed;

    public ClusterDb(PgConnector connector) {
        this.connector = connector;
    }

    public PgConnector connector() {
        return connector;
    }

    /** A read or a single statement. */
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction, committed when it returns. After a lost connection (a database
     * restarted since the last use) it is run once more on a new one: every change here is written so that
     * running it again after a commit whose answer was lost does no harm (a move then answers "not there").
     *
     * @throws ClusterException when the database is away or refuses
     */
    public <T> T inTransaction(Work<T> work) {
        return withConnection(c -> PgTransaction.run(c, work::run));
    }

    /** Runs a read (autocommit). */
    public <T> T read(Work<T> work) {
        return withConnection(work);
    }

    private <T> T withConnection(Work<T> work) {
        synchronized (lock) {
            if (closed) {
                throw new ClusterException("the cluster database connection is closed");
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    if (connection == null) {
                        connection = connector.open();
                    }
                    return work.run(connection);
                } catch (SQLException e) {
                    closeConnection();
                    if (!PgConnector.isOutage(e)) {
                        throw new ClusterException("cluster database " + connector.describe() + " refused: " + e.getMessage(), e);
                    }
                    if (attempt == 2) {
                        throw new ClusterException("cluster database " + connector.describe() + " is unreachable: " + e.getMessage(), e);
                    }
                }
            }
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // it is being dropped for a failure already
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            closeConnection();
        }
    }
}
