package io.jsalt.master.supervision;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The fleet table in SQLite: {@code <cachedir>/supervision.sqlite} (0600 in a 0700 folder, WAL), one row per
 * minion and process. Its own file, not the job cache's: the two have nothing to join, and either can be
 * deleted without the other. Writes go through one thread of their own, so the event bus never waits on the
 * disk; a write that fails is logged and dropped (the minion's next report writes the row again).
 */
public final class SqliteFleetStore implements FleetStore {
    private static final Logger log = LoggerFactory.getLogger(SqliteFleetStore.class);
    static final String FILE_NAME = "supervision.sqlite";
    private static final String SCHEMA = "CREATE TABLE IF NOT EXISTS processes (minion TEXT NOT NULL, process TEXT NOT NULL,"
            + " grp TEXT NOT NULL, state TEXT NOT NULL, pid INTEGER NOT NULL, exitstatus INTEGER, since REAL NOT NULL,"
            + " restarts INTEGER NOT NULL, description TEXT NOT NULL, reported_ms INTEGER NOT NULL,"
            + " PRIMARY KEY (minion, process))";

    private final Path file;
    private final Connection connection;
    private final ExecutorService writer;

    private SqliteFleetStore(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jsalt-fleet-store");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The store in {@code cachedir}; when it cannot be opened (a corrupt file, a full disk), the table lives in
     * memory, with an error logged: the master starts anyway.
     */
    public static FleetStore open(Path cachedir) {
        Path file = cachedir.resolve(FILE_NAME);
        try {
            Files.createDirectories(cachedir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException e) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            SQLiteConfig config = new SQLiteConfig();
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
            config.setBusyTimeout(10_000);
            Connection c = config.createConnection("jdbc:sqlite:" + file);
            try (Statement s = c.createStatement()) {
                s.execute(SCHEMA);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return new SqliteFleetStore(file, c);
        } catch (IOException | SQLException e) {
            log.error("cannot open the fleet table {}: {}; the table of supervised processes lives in memory until "
                    + "the next start", file, e.getMessage());
            return NONE;
        }
    }

    @Override
    public List<FleetProcesses.Row> load() {
        List<FleetProcesses.Row> rows = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT minion, process, grp, state, pid, exitstatus, since, restarts,"
                        + " description, reported_ms FROM processes ORDER BY minion, process")) {
            while (rs.next()) {
                long exit = rs.getLong(6);
                Object exitstatus = rs.wasNull() ? null : exit;
                rows.add(new FleetProcesses.Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getLong(5), exitstatus, rs.getDouble(7), rs.getInt(8), rs.getString(9),
                        Instant.ofEpochMilli(rs.getLong(10)), null));
            }
        } catch (SQLException e) {
            log.error("cannot read the fleet table {}: {}; starting with an empty table", file, e.getMessage());
        }
        return rows;
    }

    @Override
    public void save(FleetProcesses.Row row) {
        write(() -> {
            try (PreparedStatement p = connection.prepareStatement("INSERT OR REPLACE INTO processes (minion, process, grp,"
                    + " state, pid, exitstatus, since, restarts, description, reported_ms) VALUES (?,?,?,?,?,?,?,?,?,?)")) {
                p.setString(1, row.minion());
                p.setString(2, row.process());
                p.setString(3, row.group());
                p.setString(4, row.state());
                p.setLong(5, row.pid());
                if (row.exitstatus() instanceof Number n) {
                    p.setLong(6, n.longValue());
                } else {
                    p.setNull(6, Types.INTEGER);
                }
                p.setDouble(7, row.since());
                p.setInt(8, row.restarts());
                p.setString(9, row.description());
                p.setLong(10, row.reported().toEpochMilli());
                p.executeUpdate();
            }
        });
    }

    @Override
    public void delete(String minion, String process) {
        write(() -> {
            try (PreparedStatement p = connection.prepareStatement("DELETE FROM processes WHERE minion = ? AND process = ?")) {
                p.setString(1, minion);
                p.setString(2, process);
                p.executeUpdate();
            }
        });
    }

    @Override
    public void forget(String minion) {
        write(() -> {
            try (PreparedStatement p = connection.prepareStatement("DELETE FROM processes WHERE minion = ?")) {
                p.setString(1, minion);
                p.executeUpdate();
            }
        });
    }

    private interface Write {
        void run() throws SQLException;
    }

    private void write(Write write) {
        try {
            writer.execute(() -> {
                try {
                    write.run();
                } catch (SQLException e) {
                    log.warn("fleet table {}: a write failed: {}", file, e.getMessage());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            log.debug("fleet table closed: a write dropped");
        }
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("fleet table {}: writes still pending at close were dropped", file);
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("closing {}: {}", file, e.getMessage());
        }
    }
}
