package io.jsalt.master.jobs;

import io.jsalt.transport.codec.SaltPack;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded, durable job cache: {@code cachedir/jobs.sqlite}, one row per job and one per return, values
 * as msgpack. Every write runs on one writer thread ({@link GroupCommitWriter}, owner of the writer
 * connection), so SQLite never sees two writers and never answers SQLITE_BUSY; returns and jobs that wait
 * together are committed together; callers wait for their write to commit, so what they saved is read back
 * at once, except that a return may be handed over ({@link #saveReturn(JobReturn, ReturnSaved)}) and its caller
 * told from the writer thread once it has committed. Reads share a second connection, which WAL lets read
 * while the writer writes.
 */
public final class SqliteJobCache implements JobCache {
    private static final Logger LOG = LoggerFactory.getLogger(SqliteJobCache.class);
    private static final long CLOSE_WAIT_SECONDS = 30;
    private static final String SELECT_JOB = "SELECT jid, fun, arg, tgt, tgt_type, user, minions, started_ns FROM jobs";

    private final Path file;
    private final Connection writer;
    private final GroupCommitWriter writes;
    /** Guarded by itself: a JDBC connection serves one thread at a time. */
    private final Connection reader;

    /**
     * The return insert, prepared once on the writer thread (the only one that uses it), so SQLite does not
     * compile the statement again for every return.
     */
    private PreparedStatement insertReturn;
    /** {@link #hasReturn}'s query on the reader, under its lock; closed with it. */
    private PreparedStatement hasReturnQuery;

    private SqliteJobCache(Path file, Connection writer, Connection reader) {
        this.file = file;
        this.writer = writer;
        this.reader = reader;
        this.writes = new GroupCommitWriter(writer);
    }

    /** Opens (or creates) the cache in {@code cachedir}; a corrupt file is moved aside and a new one begun. */
    public static SqliteJobCache open(Path cachedir) {
        Connection writer = SqliteStore.openWriter(cachedir);
        Connection reader;
        try {
            reader = SqliteStore.openReader(cachedir);
        } catch (JobCacheException e) {
            closeQuietly(writer);
            throw e;
        }
        Path file = cachedir.resolve(SqliteStore.FILE_NAME);
        LOG.info("job cache {}", file);
        return new SqliteJobCache(file, writer, reader);
    }

    @Override
    public void saveJob(Job job) {
        byte[] arg = SaltPack.packBinType(job.arg());
        byte[] tgt = SaltPack.packBinType(job.tgt());
        byte[] minions = SaltPack.packBinType(job.minions());
        groupableWrite(() -> {
            try (PreparedStatement s = writer.prepareStatement("INSERT OR REPLACE INTO jobs"
                    + " (jid, fun, arg, tgt, tgt_type, user, minions, started_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, job.jid());
                s.setString(2, job.fun());
                s.setBytes(3, arg);
                s.setBytes(4, tgt);
                s.setString(5, job.tgtType());
                s.setString(6, job.user());
                s.setBytes(7, minions);
                s.setLong(8, nanos(job.started()));
                s.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<Job> job(String jid) {
        return read(c -> {
            try (PreparedStatement s = c.prepareStatement(SELECT_JOB + " WHERE jid = ?")) {
                s.setString(1, jid);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? Optional.of(job(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<Job> jobsBetween(String firstJid, String lastJid) {
        return read(c -> {
            try (PreparedStatement s = c.prepareStatement(SELECT_JOB
                    + " WHERE (? IS NULL OR jid >= ?) AND (? IS NULL OR jid <= ?) ORDER BY jid")) {
                s.setString(1, firstJid);
                s.setString(2, firstJid);
                s.setString(3, lastJid);
                s.setString(4, lastJid);
                List<Job> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(job(rs));
                    }
                }
                return out;
            }
        });
    }

    private static Job job(ResultSet rs) throws SQLException {
        List<Object> listed = list(unpack(rs.getBytes(7)));
        List<String> minions = listed == null ? null : new ArrayList<>();
        if (listed != null) {
            listed.forEach(m -> minions.add(String.valueOf(m)));
        }
        return new Job(rs.getString(1), rs.getString(2), list(unpack(rs.getBytes(3))),
                unpack(rs.getBytes(4)), rs.getString(5), rs.getString(6), minions, instant(rs.getLong(8)));
    }

    @Override
    public boolean saveReturn(JobReturn ret) {
        return groupableWrite(returnInsert(ret, SaltPack.packBinType(ret.ret())));
    }

    /**
     * Hands the return to the writer thread and goes on: {@code done} hears from that thread once its row has
     * committed, in the order the returns were handed over (waits only while the writes handed over and not yet
     * answered fill {@link GroupCommitWriter#MAX_UNANSWERED_BYTES}).
     */
    @Override
    public void saveReturn(JobReturn ret, ReturnSaved done) {
        byte[] value = SaltPack.packBinType(ret.ret());
        CompletableFuture<Boolean> stored;
        try {
            stored = writes.submit(returnInsert(ret, value), value.length);
        } catch (GroupCommitWriter.ClosedException e) {
            done.failed(new JobCacheException("job cache " + file + " is closed"));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done.failed(new JobCacheException("interrupted while writing to the job cache " + file, e));
            return;
        }
        stored.whenComplete((fresh, failure) -> {
            if (failure == null) {
                done.saved(fresh);
            } else {
                done.failed(writeFailed(failure));
            }
        });
    }

    /** The insert of one return (on the writer thread). */
    private GroupCommitWriter.Write<Boolean> returnInsert(JobReturn ret, byte[] value) {
        return () -> {
            // DO NOTHING on the UNIQUE (jid, id) constraint: a duplicate is an answer (false), not an error
            PreparedStatement s = insertReturn();
            s.setString(1, ret.jid());
            s.setString(2, ret.id());
            s.setBytes(3, value);
            s.setInt(4, ret.retcode());
            s.setBoolean(5, ret.success());
            s.setLong(6, nanos(ret.received()));
            s.setBoolean(7, ret.verified());
            try {
                return s.executeUpdate() == 1;
            } finally {
                s.clearParameters(); // let go of the return's bytes until the next one
            }
        };
    }

    /** Writer thread only. */
    private PreparedStatement insertReturn() throws SQLException {
        if (insertReturn == null) {
            insertReturn = writer.prepareStatement("INSERT INTO returns"
                    + " (jid, id, ret, retcode, success, received_ns, verified) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    + " ON CONFLICT (jid, id) DO NOTHING");
        }
        return insertReturn;
    }

    @Override
    public List<JobReturn> returns(String jid) {
        return read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT jid, id, ret, retcode, success, received_ns, verified"
                    + " FROM returns WHERE jid = ? ORDER BY seq")) {
                s.setString(1, jid);
                List<JobReturn> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new JobReturn(rs.getString(1), rs.getString(2), unpack(rs.getBytes(3)), rs.getInt(4),
                                rs.getBoolean(5), instant(rs.getLong(6)), rs.getBoolean(7)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public boolean hasReturn(String jid, String id) {
        return read(c -> {
            // the UNIQUE (jid, id) index answers it: no other return of the job is read. Prepared once: a late
            // sign-in's catch-up asks it per (job, minion), and preparing cost more than the look-up
            if (hasReturnQuery == null) {
                hasReturnQuery = c.prepareStatement("SELECT 1 FROM returns WHERE jid = ? AND id = ?");
            }
            PreparedStatement s = hasReturnQuery;
            try {
                s.setString(1, jid);
                s.setString(2, id);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next();
                }
            } catch (SQLException e) {
                hasReturnQuery = null; // prepared again on the next call
                s.close();
                throw e;
            } finally {
                if (hasReturnQuery != null) {
                    s.clearParameters();
                }
            }
        });
    }

    @Override
    public int trimReturnsPerMinion(int max) {
        return write(() -> {
            // the usual answer is "nobody is over": found on the (id, received_ns) index without touching a row
            try (PreparedStatement over = writer.prepareStatement("SELECT 1 FROM returns GROUP BY id HAVING COUNT(*) > ? LIMIT 1")) {
                over.setInt(1, max);
                try (ResultSet rs = over.executeQuery()) {
                    if (!rs.next()) {
                        return 0;
                    }
                }
            }
            try (PreparedStatement s = writer.prepareStatement("DELETE FROM returns WHERE seq IN (SELECT seq FROM"
                    + " (SELECT seq, ROW_NUMBER() OVER (PARTITION BY id ORDER BY received_ns DESC, seq DESC) AS newest"
                    + " FROM returns) WHERE newest > ?)")) {
                s.setInt(1, max);
                return s.executeUpdate();
            }
        });
    }

    /**
     * Forgets jobs started before the cutoff with all their returns, and returns for unknown jobs received
     * before it, in one transaction: a reader never sees a job without the returns it had.
     */
    @Override
    public void prune(Instant cutoff) {
        long before = nanos(cutoff);
        write(() -> {
            writer.setAutoCommit(false);
            try (PreparedStatement returns = writer.prepareStatement(
                    "DELETE FROM returns WHERE jid IN (SELECT jid FROM jobs WHERE started_ns < ?)");
                 PreparedStatement orphans = writer.prepareStatement("DELETE FROM returns WHERE received_ns < ?"
                         + " AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.jid = returns.jid)");
                 PreparedStatement jobs = writer.prepareStatement("DELETE FROM jobs WHERE started_ns < ?")) {
                returns.setLong(1, before);
                returns.executeUpdate();
                orphans.setLong(1, before);
                orphans.executeUpdate();
                jobs.setLong(1, before);
                int pruned = jobs.executeUpdate();
                writer.commit();
                if (pruned > 0) {
                    LOG.debug("job cache: forgot {} jobs started before {}", pruned, cutoff);
                }
            } catch (SQLException | RuntimeException e) {
                writer.rollback();
                throw e;
            } finally {
                writer.setAutoCommit(true);
            }
            return null;
        });
    }

    /** Lets the writes already asked for commit, then closes both connections. */
    @Override
    public void close() {
        if (!writes.closeWithin(CLOSE_WAIT_SECONDS)) {
            LOG.warn("job cache {}: writes still pending after {} s, closing anyway", file, CLOSE_WAIT_SECONDS);
        }
        synchronized (reader) {
            closeQuietly(reader);
        }
        closeQuietly(writer);
    }

    private interface Read<T> {
        T run(Connection c) throws SQLException;
    }

    /** A write that runs alone (it may manage its own transaction). */
    private <T> T write(GroupCommitWriter.Write<T> task) {
        return write(task, false);
    }

    /** A single-statement write that may be committed together with the ones waiting beside it. */
    private <T> T groupableWrite(GroupCommitWriter.Write<T> task) {
        return write(task, true);
    }

    private <T> T write(GroupCommitWriter.Write<T> task, boolean groupable) {
        try {
            return writes.run(task, groupable);
        } catch (GroupCommitWriter.ClosedException e) {
            throw new JobCacheException("job cache " + file + " is closed");
        } catch (ExecutionException e) {
            throw writeFailed(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobCacheException("interrupted while writing to the job cache " + file, e);
        }
    }

    private JobCacheException writeFailed(Throwable cause) {
        if (cause instanceof GroupCommitWriter.ClosedException) {
            return new JobCacheException("job cache " + file + " is closed");
        }
        return new JobCacheException("job cache " + file + ": write failed: " + cause.getMessage(), cause);
    }

    private <T> T read(Read<T> query) {
        synchronized (reader) {
            try {
                return query.run(reader);
            } catch (SQLException e) {
                throw new JobCacheException("job cache " + file + ": read failed: " + e.getMessage(), e);
            }
        }
    }

    private static Object unpack(byte[] packed) {
        return packed == null ? null : SaltPack.unpack(packed);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object unpacked) {
        return unpacked instanceof List<?> l ? (List<Object>) l : null;
    }

    private static long nanos(Instant at) {
        return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            LOG.warn("job cache: closing a connection failed: {}", e.getMessage());
        }
    }
}
