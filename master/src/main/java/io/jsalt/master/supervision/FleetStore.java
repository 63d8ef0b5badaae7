package io.jsalt.master.supervision;

import java.util.List;

/**
 * Where the fleet table of supervised processes outlives the master: rows are saved as the minions report
 * them and loaded at the next start, so {@code supervisor.status} answers after a master restart before the
 * minions sign in again. Small on purpose: SQLite ({@link SqliteFleetStore}, one master's own
 * file) or PostgreSQL ({@link PgFleetStore}, one table every master on the database shares).
 * A store that fails must not stop the master: the table is a copy of what the minions report, and every minion
 * reports all its processes again when it signs in.
 */
public interface FleetStore extends AutoCloseable {
    /** Nothing is kept: the table lives in memory only. */
    FleetStore NONE = new FleetStore() {
        @Override
        public List<FleetProcesses.Row> load() {
            return List.of();
        }

        @Override
        public void save(FleetProcesses.Row row) {
        }

        @Override
        public void delete(String minion, String process) {
        }

        @Override
        public void forget(String minion) {
        }

        @Override
        public void close() {
        }
    };

    /** Every row saved, for the table at start. */
    List<FleetProcesses.Row> load();

    /** Saves a row, replacing the one of the same minion and process; may return before it is written. */
    void save(FleetProcesses.Row row);

    /** Deletes the row of one process (its program was removed from the minion). */
    void delete(String minion, String process);

    /** Deletes every row of a minion (its key was deleted). */
    void forget(String minion);

    /**
     * Whether other masters write to this store too (PostgreSQL): the table shown is then read from the store at
     * each query, so that every master on the database shows the whole fleet.
     */
    default boolean shared() {
        return false;
    }

    /** Writes what is pending, then releases the store. */
    @Override
    void close();
}
