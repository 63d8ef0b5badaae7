package io.jsalt.bench.client;

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
 * master (WAL lets a reader in): the ground truth for "lost returns", independent of the event bus.
 */
public final class JobCacheReader {
    private final Path file;

    public JobCacheReader(Path masterCachedir) {
        this.file = masterCachedir.resolve("jobs.sqlite");
    }

    /** Stored returns per jid, for the jids that start with {@code jidPrefix} ("" for all). */
    public Map<String, Integer> returnsPerJob(String jidPrefix) throws SQLException {
        Properties p = new Properties();
        p.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        Map<String, Integer> counts = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, p);
                PreparedStatement s = c.prepareStatement("SELECT jid, COUNT(*) FROM returns WHERE jid LIKE ? GROUP BY jid")) {
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
