package io.jsalt.master.jobs.pg;

import io.jsalt.master.jobs.JobCacheException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The job cache's reading connection, beside the writer's: one reader at a time (a JDBC connection serves one
 * thread), opened when first needed and once more after a lost connection (a database restarted since the last
 * read); an outage or a refusal becomes a {@link JobCacheException} naming the database, never the password.
 */
final class PgReader implements AutoCloseable {
    interface Query<T> {
        T run(Connection c) throws SQLException;
    }

    private final PgConnector connector;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}; null until needed, or after a failure. */
    private Connection reader;

    PgReader(PgConnector connector) {
        this.connector = connector;
    }

    <T> T read(Query<T> query) {
        synchronized (lock) {
            for (int attempt = 1; ; attempt++) {
                try {
                    if (reader == null) {
                        reader = connector.open();
                    }
                    return query.run(reader);
                } catch (SQLException e) {
                    drop();
                    if (!PgConnector.isOutage(e)) {
                        throw new JobCacheException("job cache database " + connector.describe() + ": read failed: " + e.getMessage(), e);
                    }
                    if (attempt == 2) {
                        throw new JobCacheException("job cache database " + connector.describe() + " is unreachable: " + e.getMessage(), e);
                    }
                }
            }
        }
    }

    private void drop() {
        if (reader != null) {
            try {
                reader.close();
            } catch (SQLException ignored) {
                // dropped for a failure already
            }
            reader = null;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            drop();
        }
    }
}
