package io.jsalt.master.jobs;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteException;

/**
 * The SQLite file behind {@link SqliteJobCache}: opens it private (0600 in a 0700 folder) in WAL mode, creates
 * or checks the schema, and moves a corrupt or unreadable file aside so that the master starts on a new one.
 */
final class SqliteStore {
    /** The schema this code writes; a file with a higher version came from a newer jsalt and is left alone. */
    static final int SCHEMA_VERSION = 1;
    static final String FILE_NAME = "jobs.sqlite";

    private static final Logger LOG = LoggerFactory.getLogger(SqliteStore.class);
    private static final DateTimeFormatter ASIDE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'");
    private static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
        "CREATE TABLE IF NOT EXISTS jobs (jid TEXT PRIMARY KEY, fun TEXT, arg BLOB, tgt BLOB, tgt_type TEXT,"
                + " user TEXT, minions BLOB, started_ns INTEGER NOT NULL)",
        "CREATE INDEX IF NOT EXISTS jobs_started ON jobs (started_ns)",
        // the store itself refuses a second return from one minion for one job (replays, duplicates)
        "CREATE TABLE IF NOT EXISTS returns (seq INTEGER PRIMARY KEY, jid TEXT NOT NULL, id TEXT NOT NULL, ret BLOB,"
                + " retcode INTEGER NOT NULL, success INTEGER NOT NULL, received_ns INTEGER NOT NULL,"
                + " verified INTEGER NOT NULL DEFAULT 1, UNIQUE (jid, id))",
        "CREATE INDEX IF NOT EXISTS returns_received ON returns (received_ns)",
        // job_cache_max_returns_per_minion counts and trims each minion's returns, newest first
        "CREATE INDEX IF NOT EXISTS returns_minion ON returns (id, received_ns)",
    };

    private SqliteStore() {
    }

    /** The writer's connection, on a usable file with the schema in place; a bad file is moved aside first. */
    static Connection openWriter(Path cachedir) {
        Path file = cachedir.resolve(FILE_NAME);
        prepare(cachedir, file);
        try {
            return openAndMigrate(file);
        } catch (SQLException e) {
            if (!isBadFile(e)) {
                throw new JobCacheException("cannot open the job cache " + file + ": " + e.getMessage(), e);
            }
            Path aside = moveAside(file);
            LOG.error("job cache {} is corrupt or unreadable ({}): moved to {}, starting a new one", file,
                    e.getMessage(), aside);
            prepare(cachedir, file);
            try {
                return openAndMigrate(file);
            } catch (SQLException again) {
                throw new JobCacheException("cannot create the job cache " + file + ": " + again.getMessage(), again);
            }
        }
    }

    /** A second connection for readers: WAL lets it read while the writer writes. */
    static Connection openReader(Path cachedir) {
        Path file = cachedir.resolve(FILE_NAME);
        try {
            Connection c = config().createConnection("jdbc:sqlite:" + file);
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA query_only = 1");
            }
            return c;
        } catch (SQLException e) {
            throw new JobCacheException("cannot open the job cache " + file + " for reading: " + e.getMessage(), e);
        }
    }

    private static SQLiteConfig config() {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // in WAL mode NORMAL never corrupts; a power cut may lose the last commits, a crashed master loses none
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(10_000);
        return config;
    }

    /** The folder 0700 and the file 0600 before SQLite opens it; SQLite gives its -wal and -shm the file's mode. */
    private static void prepare(Path cachedir, Path file) {
        try {
            Files.createDirectories(cachedir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setPosixFilePermissions(cachedir, PosixFilePermissions.fromString("rwx------"));
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException e) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException e) {
            throw new JobCacheException("cannot prepare the job cache " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Files written before returns were marked verified or not lack the column; it is added with 1, as
     * jsalt then required signed returns by default. The schema version stays, since an
     * older jsalt names its columns and so reads and writes such a file unchanged.
     */
    private static void addVerifiedColumn(Statement s) throws SQLException {
        boolean present = false;
        try (ResultSet rs = s.executeQuery("PRAGMA table_info(returns)")) {
            while (rs.next()) {
                present |= "verified".equals(rs.getString("name"));
            }
        }
        if (!present) {
            s.execute("ALTER TABLE returns ADD COLUMN verified INTEGER NOT NULL DEFAULT 1");
        }
    }

    private static Connection openAndMigrate(Path file) throws SQLException {
        Connection c = config().createConnection("jdbc:sqlite:" + file);
        try (Statement s = c.createStatement()) {
            // the first real read: a file that is not a database fails here, not at the first job
            s.executeQuery("SELECT count(*) FROM sqlite_master").close();
            c.setAutoCommit(false);
            for (String ddl : SCHEMA) {
                s.execute(ddl);
            }
            addVerifiedColumn(s);
            int version = 0;
            try (ResultSet rs = s.executeQuery("SELECT max(version) FROM schema_version")) {
                if (rs.next()) {
                    version = rs.getInt(1);
                }
            }
            if (version > SCHEMA_VERSION) {
                c.rollback();
                c.close();
                throw new JobCacheException("job cache " + file + " has schema version " + version
                        + ", newer than this jsalt's " + SCHEMA_VERSION + ": use the newer jsalt or move the file away");
            }
            if (version < SCHEMA_VERSION) {
                s.execute("DELETE FROM schema_version");
                s.execute("INSERT INTO schema_version (version) VALUES (" + SCHEMA_VERSION + ")");
            }
            c.commit();
            c.setAutoCommit(true);
            return c;
        } catch (SQLException | RuntimeException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the open error is the one worth reporting
            }
            throw e;
        }
    }

    /** Errors a new file cures: not a database, corrupt pages, or a file SQLite cannot open at all. */
    private static boolean isBadFile(SQLException e) {
        if (!(e instanceof SQLiteException se)) {
            return false;
        }
        int primary = se.getResultCode().code & 0xff;
        return primary == 11 /* SQLITE_CORRUPT */ || primary == 26 /* SQLITE_NOTADB */
                || primary == 14 /* SQLITE_CANTOPEN */;
    }

    private static Path moveAside(Path file) {
        String stamp = LocalDateTime.now(ZoneOffset.UTC).format(ASIDE);
        Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + stamp);
        try {
            Files.move(file, aside);
            // a WAL belongs to the file it was written for: it goes aside with it
            for (String suffix : new String[] {"-wal", "-shm"}) {
                Path companion = file.resolveSibling(file.getFileName() + suffix);
                if (Files.exists(companion)) {
                    Files.move(companion, companion.resolveSibling(companion.getFileName() + ".corrupt-" + stamp));
                }
            }
            return aside;
        } catch (IOException e) {
            throw new JobCacheException("job cache " + file + " is corrupt and cannot be moved aside: " + e.getMessage(), e);
        }
    }
}
