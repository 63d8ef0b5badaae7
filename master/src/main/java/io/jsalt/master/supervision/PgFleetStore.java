package io.jsalt.master.supervision;

import io.jsalt.config.PostgresSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet table in PostgreSQL ({@code master_job_cache: postgres}), in a table of its own,
 * {@code jsalt_supervision}, one row per minion and process with the master that reported it: every master on
 * the database writes its own minions' rows and reads everyone's, so {@code supervisor.status} on any master
 * shows the whole fleet (issue 19). Rows relayed from another master's bus ({@code event_return: pgjsonb}) are
 * not written again: their own master writes them.
 *
 * <p>Writes go through one thread and its connection, so the event bus never waits on the database; a write that
 * fails (the database is away) is logged once per outage and dropped: every minion reports all its processes
 * again when it signs in. A read that fails answers what this master knows itself.
 */
public final class PgFleetStore implements FleetStore {
    private static final Logger log = LoggerFactory.getLogger(PgFleetStore.class);
    static final String TABLE = "jsalt_supervision";
    private static final String SCHEMA = "CREATE TABLE IF NOT EXISTS " + TABLE + " (minion TEXT NOT NULL, process TEXT NOT NULL,"
            + " grp TEXT NOT NULL, state TEXT NOT NULL, pid BIGINT NOT NULL, exitstatus BIGINT, since DOUBLE PRECISION NOT NULL,"
            + " restarts INTEGER NOT NULL, description TEXT NOT NULL, reported_ms BIGINT NOT NULL, master TEXT NOT NULL,"
            + " PRIMARY KEY (minion, process))";
    /** A newer report wins, whichever master writes last (a write may wait in a queue while another lands). */
    private static final String UPSERT = "INSERT INTO " + TABLE + " (minion, process, grp, state, pid, exitstatus, since,"
            + " restarts, description, reported_ms, master) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (minion, process) DO UPDATE"
            + " SET grp = EXCLUDED.grp, state = EXCLUDED.state, pid = EXCLUDED.pid, exitstatus = EXCLUDED.exitstatus,"
            + " since = EXCLUDED.since, restarts = EXCLUDED.restarts, description = EXCLUDED.description,"
            + " reported_ms = EXCLUDED.reported_ms, master = EXCLUDED.master WHERE " + TABLE + ".reported_ms <= EXCLUDED.reported_ms";
    private static final int CONNECT_TIMEOUT_SECONDS = 5;
    private static final int SOCKET_TIMEOUT_SECONDS = 30;

    private final PostgresSettings settings;
    private final String masterId;
    private final String url;
    private final ExecutorService writer;
    /** The writer thread's connection; null until (re)opened. */
    private Connection writes;
    /** The readers' connection, guarded by {@link #readLock}. */
    private Connection reads;
    private final Object readLock = new Object();
    /** A failure was logged and nothing has worked since: the next ones go to DEBUG. */
    private volatile boolean away;

    private PgFleetStore(PostgresSettings settings, String masterId) {
        this.settings = settings;
        this.masterId = masterId;
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        this.url = "jdbc:postgresql://" + host + ":" + settings.port() + "/"
                + java.net.URLEncoder.encode(settings.db(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jsalt-fleet-store-pg");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The store on the job cache's database, for the master {@code masterId}. The table is created now when the
     * database answers; when it does not, the master starts anyway and the store keeps trying at each write.
     */
    public static PgFleetStore open(PostgresSettings settings, String masterId) {
        PgFleetStore store = new PgFleetStore(settings, masterId);
        store.writer.execute(() -> {
            try {
                store.writeConnection();
            } catch (SQLException e) {
                store.failed("cannot open the fleet table", e);
            }
        });
        return store;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public List<FleetProcesses.Row> load() {
        synchronized (readLock) {
            try {
                if (reads == null || reads.isClosed()) {
                    reads = connect();
                }
                return select(reads);
            } catch (SQLException e) {
                failed("cannot read the fleet table", e);
                closeQuietly(reads);
                reads = null;
                return List.of();
            }
        }
    }

    private List<FleetProcesses.Row> select(Connection c) throws SQLException {
        List<FleetProcesses.Row> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT minion, process, grp, state, pid, exitstatus, since, restarts,"
                        + " description, reported_ms, master FROM " + TABLE + " ORDER BY minion, process")) {
            while (rs.next()) {
                long exit = rs.getLong(6);
                Object exitstatus = rs.wasNull() ? null : exit;
                String master = rs.getString(11);
                rows.add(new FleetProcesses.Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getLong(5), exitstatus, rs.getDouble(7), rs.getInt(8), rs.getString(9),
                        Instant.ofEpochMilli(rs.getLong(10)), masterId.equals(master) ? null : master));
            }
        }
        recovered();
        return rows;
    }

    @Override
    public void save(FleetProcesses.Row row) {
        if (row.via() != null) {
            return; // relayed from another master's bus: that master writes it
        }
        write(c -> {
            try (PreparedStatement p = c.prepareStatement(UPSERT)) {
                p.setString(1, row.minion());
                p.setString(2, row.process());
                p.setString(3, row.group());
                p.setString(4, row.state());
                p.setLong(5, row.pid());
                if (row.exitstatus() instanceof Number n) {
                    p.setLong(6, n.longValue());
                } else {
                    p.setNull(6, Types.BIGINT);
                }
                p.setDouble(7, row.since());
                p.setInt(8, row.restarts());
                p.setString(9, row.description());
                p.setLong(10, row.reported().toEpochMilli());
                p.setString(11, masterId);
                p.executeUpdate();
            }
        });
    }

    @Override
    public void delete(String minion, String process) {
        write(c -> {
            try (PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLE + " WHERE minion = ? AND process = ?")) {
                p.setString(1, minion);
                p.setString(2, process);
                p.executeUpdate();
            }
        });
    }

    @Override
    public void forget(String minion) {
        write(c -> {
            try (PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLE + " WHERE minion = ?")) {
                p.setString(1, minion);
                p.executeUpdate();
            }
        });
    }

    private interface Write {
        void run(Connection c) throws SQLException;
    }

    private void write(Write write) {
        try {
            writer.execute(() -> {
                try {
                    write.run(writeConnection());
                    recovered();
                } catch (SQLException e) {
                    failed("a write to the fleet table failed (dropped: the minion reports again when it signs in)", e);
                    closeQuietly(writes);
                    writes = null;
                }
            });
        } catch (RejectedExecutionException e) {
            log.debug("fleet table closed: a write dropped");
        }
    }

    /** On the writer thread: its connection, opened (and the table made) when there is none. */
    private Connection writeConnection() throws SQLException {
        if (writes == null || writes.isClosed()) {
            writes = connect();
            try (Statement s = writes.createStatement()) {
                s.execute(SCHEMA);
            }
        }
        return writes;
    }

    private Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", settings.user());
        p.setProperty("password", settings.pass());
        p.setProperty("ApplicationName", "jsalt-master fleet table");
        p.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_SECONDS));
        p.setProperty("tcpKeepAlive", "true");
        settings.ssl().forEach(p::setProperty);
        Connection c = new Driver().connect(url, p);
        if (c == null) {
            throw new SQLException("the PostgreSQL driver refused " + settings);
        }
        return c;
    }

    private void failed(String what, SQLException e) {
        if (away) {
            log.debug("{} ({}): {}", what, settings, e.getMessage());
        } else {
            away = true;
            log.warn("{} ({}): {}; the table shows what this master knows itself until the database answers", what,
                    settings, e.getMessage());
        }
    }

    private void recovered() {
        if (away) {
            away = false;
            log.info("the fleet table in PostgreSQL ({}) answers again", settings);
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                log.debug("closing a fleet table connection: {}", e.getMessage());
            }
        }
    }

    /** Writes what is queued (at most 10 s), then closes both connections. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("fleet table ({}): writes still pending at close were dropped", settings);
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(writes);
        synchronized (readLock) {
            closeQuietly(reads);
        }
    }
}
