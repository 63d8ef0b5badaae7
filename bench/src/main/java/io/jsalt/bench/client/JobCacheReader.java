package io.jsalt.bench.client;

import io.jsalt.config.MasterConfig;
import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.pg.PgConnector;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Reads the master's job cache ({@code cachedir/jobs.sqlite}) directly, read-only, beside the running
 * master (WAL lets a reader in): the ground truth for "lost returns", independent of the event bus. With
 * {@code master_job_cache: postgres}, Salt's {@code salt_returns} in the master's database instead.
 */
public final class JobCacheReader {
    private final Path file;
    private final PostgresSettings postgres;

    public JobCacheReader(Path masterCachedir) {
        this.file = masterCachedir.resolve("jobs.sqlite");
        this.postgres = null;
    }

    private JobCacheReader(PostgresSettings postgres) {
        this.file = null;
        this.postgres = postgres;
    }

    /** The reader of the job cache {@code config} names (SQLite or PostgreSQL). */
    public static JobCacheReader of(MasterConfig config) {
        return "postgres".equals(config.masterJobCache()) ? new JobCacheReader(config.postgres()) : new JobCacheReader(config.cachedir());
    }

    /** Stored returns per jid, for the jids that start with {@code jidPrefix} ("" for all). */
    public Map<String, Integer> returnsPerJob(String jidPrefix) throws SQLException {
        if (postgres != null) {
            return count(new PgConnector(postgres).open(), "SELECT jid, COUNT(*) FROM salt_returns WHERE jid LIKE ? GROUP BY jid", jidPrefix);
        }
        Properties p = new Properties();
        p.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        return count(DriverManager.getConnection("jdbc:sqlite:" + file, p), "SELECT jid, COUNT(*) FROM returns WHERE jid LIKE ? GROUP BY jid",
                jidPrefix);
    }

    private static Map<String, Integer> count(Connection opened, String sql, String jidPrefix) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        try (Connection c = opened; PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, jidPrefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return counts;
    }
}
