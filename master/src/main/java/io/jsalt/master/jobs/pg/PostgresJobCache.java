package io.jsalt.master.jobs.pg;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobCacheException;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobReturn;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code master_job_cache: postgres}: jobs and returns in PostgreSQL, in Salt's pgjsonb tables, shared by
 * every master pointed at the database. Writes run on one thread ({@code jsalt-job-cache-pg}, owner of the
 * writer connection and of the {@link Spool}); callers wait for their write, so what they saved is read back
 * at once. When the database is away, writes go to the spool on disk instead (the master keeps publishing
 * and accepting returns, Salt #25780), the outage is logged at ERROR once a minute, and the same thread
 * retries every second and, once connected, writes the spool back in order before anything newer.
 */
public final class PostgresJobCache implements JobCache {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresJobCache.class);
    private static final long CLOSE_WAIT_SECONDS = 30;
    private static final int CATCH_UP_BATCH = 500;
    private static final long CATCH_UP_SLICE_MILLIS = 200;
    private static final long RETRY_MILLIS = 1_000;
    private static final long REMIND_MILLIS = 60_000;
    /** Jobs this master saved lately, so that returns to them are still checked while the database is away. */
    private static final int RECENT_JOBS = 4_096;
    private static final long SLOT_RENEW_SECONDS = 60;

    private final PgConnector connector;
    private final Spool spool;
    private final ScheduledExecutorService writes;
    /** The writer thread's: null while the database is away. */
    private Connection writer;
    private boolean retrying;
    private long lastReminder;
    private final PgReader reads;
    /** Set by the writer thread while the database is away: reads then fail at once instead of waiting on a connect. */
    private volatile boolean away;
    /** Guarded by itself. */
    private final java.util.Map<String, Job> recentJobs = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Job> eldest) {
            return size() > RECENT_JOBS;
        }
    };

    /** This master's jid slot in jsalt_masters, or null (a cache opened without jids: tools, tests). */
    private final PgJidSlots slots;

    private PostgresJobCache(PgConnector connector, Spool spool, String masterId, Jids jids) {
        this.connector = connector;
        this.spool = spool;
        this.slots = jids == null ? null : new PgJidSlots(jids, masterId, connector.describe());
        this.reads = new PgReader(connector);
        this.writes = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jsalt-job-cache-pg");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects and creates the schema where missing. A database that is away is not an error here (the
     * master starts and spools); one that refuses (wrong password, no such database) is.
     */
    public static PostgresJobCache open(PostgresSettings settings, Path cachedir) {
        return open(settings, cachedir, null, null);
    }

    /**
     * As {@link #open(PostgresSettings, Path)}, for a master named {@code masterId} whose {@code jids} get a slot of
     * their own among the masters on the database ({@link PgJidSlots}), renewed every minute.
     */
    public static PostgresJobCache open(PostgresSettings settings, Path cachedir, String masterId, Jids jids) {
        Spool spool = Spool.open(cachedir.resolve("pg-spool"), settings.spoolMaxBytes());
        PostgresJobCache cache = new PostgresJobCache(new PgConnector(settings), spool, masterId, jids);
        try {
            cache.write(() -> {
                cache.connectAtStart();
                return null;
            });
        } catch (JobCacheException e) {
            cache.close();
            throw e;
        }
        if (cache.slots != null) {
            cache.writes.scheduleWithFixedDelay(cache::renewSlot, SLOT_RENEW_SECONDS, SLOT_RENEW_SECONDS, TimeUnit.SECONDS);
        }
        return cache;
    }

    /** On the writer thread, every minute and at each connect. */
    private void renewSlot() {
        if (slots != null && writer != null) {
            slots.renew(writer);
        }
    }

    private void connectAtStart() {
        try {
            writer = connect();
            LOG.info("job cache: PostgreSQL {}", connector.describe());
        } catch (SQLException e) {
            if (!PgConnector.isOutage(e)) {
                throw new JobCacheException("job cache database " + connector.describe() + " refused: " + e.getMessage(), e);
            }
            wentAway(e);
        }
        if (!spool.isEmpty()) {
            LOG.warn("job cache: {} records queued in {} by an earlier run, writing them to the database",
                    spool.count(), spool.dir());
            retryLater(0);
        }
    }

    private Connection connect() throws SQLException {
        Connection c = connector.open();
        try {
            PgSchema.ensure(c);
            writer = c;
            renewSlot();
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw e;
        }
    }

    @Override
    public void saveJob(Job job) {
        write(() -> {
            if (canWriteDirectly()) {
                try (PreparedStatement s = PgRows.upsertJob(writer)) {
                    PgRows.bind(s, job);
                    s.executeUpdate();
                    return null;
                } catch (SQLException e) {
                    failed(e);
                }
            }
            spool.add(job);
            return null;
        });
        synchronized (recentJobs) {
            recentJobs.put(job.jid(), job); // only once kept: a job refused by a full spool is not known
        }
    }

    /** While the database is away a return is queued and counted as new; a duplicate is dropped when written. */
    @Override
    public boolean saveReturn(JobReturn ret) {
        return write(() -> {
            if (canWriteDirectly()) {
                try (PreparedStatement s = PgRows.insertReturn(writer)) {
                    PgRows.bind(s, ret);
                    return s.executeUpdate() == 1;
                } catch (SQLException e) {
                    failed(e);
                }
            }
            spool.add(ret);
            return true;
        });
    }

    /** Directly only when connected and nothing older waits in the spool, so returns keep their order. */
    private boolean canWriteDirectly() {
        return writer != null && spool.isEmpty();
    }

    /** An outage sends the write to the spool; anything else is the caller's error. */
    private void failed(SQLException e) {
        if (!PgConnector.isOutage(e)) {
            throw new JobCacheException("job cache database " + connector.describe() + ": write failed: " + e.getMessage(), e);
        }
        wentAway(e);
    }

    private void wentAway(SQLException e) {
        if (writer != null) {
            closeQuietly(writer);
            writer = null;
        }
        away = true;
        lastReminder = System.currentTimeMillis();
        LOG.error("job cache database {} is unreachable ({}): jobs and returns are queued on disk in {} (at most {} bytes)"
                + " until it is back", connector.describe(), e.getMessage(), spool.dir(), spool.maxBytes());
        retryLater(RETRY_MILLIS);
    }

    private void retryLater(long millis) {
        if (!retrying) {
            retrying = true;
            try {
                writes.schedule(this::catchUp, millis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                retrying = false; // closing: the spool stays on disk for the next start
            }
        }
    }

    /** On the writer thread: reconnect if needed, then write a slice of the spool; again later if more is left. */
    private void catchUp() {
        retrying = false;
        if (writer == null) {
            try {
                writer = connect();
                away = false;
                LOG.warn("job cache database {} is back: writing {} queued records", connector.describe(), spool.count());
            } catch (SQLException e) {
                long now = System.currentTimeMillis();
                if (now - lastReminder >= REMIND_MILLIS) {
                    lastReminder = now;
                    LOG.error("job cache database {} still unreachable ({}): {} records ({} bytes) queued in {}",
                            connector.describe(), e.getMessage(), spool.count(), spool.bytes(), spool.dir());
                }
                retryLater(RETRY_MILLIS);
                return;
            }
        }
        long until = System.currentTimeMillis() + CATCH_UP_SLICE_MILLIS;
        try {
            while (!spool.isEmpty() && System.currentTimeMillis() < until) {
                writeBatch(spool.oldest(CATCH_UP_BATCH));
            }
        } catch (SQLException e) {
            if (PgConnector.isOutage(e)) {
                wentAway(e);
                return;
            }
            if (!PgConnector.refusesTheRecord(e)) {
                // not the record's fault (rights, a schema changed by hand, a lock): said, and retried, not dropped
                LOG.error("job cache database {} refused queued records ({}); retrying", connector.describe(), e.getMessage());
                retryLater(RETRY_MILLIS);
                return;
            }
            try {
                writeOneByOne(spool.oldest(CATCH_UP_BATCH));
            } catch (SQLException again) {
                if (PgConnector.isOutage(again)) {
                    wentAway(again);
                    return;
                }
                LOG.error("job cache database {} refused queued records ({}); retrying", connector.describe(), again.getMessage());
                retryLater(RETRY_MILLIS);
                return;
            }
            retryLater(0);
            return;
        } catch (RuntimeException e) { // a JobCacheException too
            // anything else (a damaged spool file) must not end the scheduled catch-up silently: the spool would
            // only grow until full, and every return after it be refused
            LOG.error("job cache: writing the queue back failed ({}); retrying", e.toString());
            retryLater(RETRY_MILLIS);
            return;
        }
        if (spool.isEmpty()) {
            LOG.info("job cache database {}: caught up, queue empty", connector.describe());
        } else {
            retryLater(0);
        }
    }

    /** One transaction: the files are removed only after the rows are committed (a crash between writes them twice, which the unique keys absorb). */
    private void writeBatch(List<Spool.Entry> batch) throws SQLException {
        PgTransaction.run(writer, c -> {
            try (PreparedStatement jobs = PgRows.upsertJob(c); PreparedStatement returns = PgRows.insertReturn(c)) {
                for (Spool.Entry e : batch) {
                    // one by one, in order: a return whose job is in the same batch finds the job's fun
                    if (e.record() instanceof Job job) {
                        PgRows.bind(jobs, job);
                        jobs.executeUpdate();
                    } else {
                        PgRows.bind(returns, (JobReturn) e.record());
                        returns.executeUpdate();
                    }
                }
            }
            return null;
        });
        spool.remove(batch);
    }

    /**
     * After a batch was refused for the data it holds: each record in a transaction of its own, and one the
     * database refuses for good is moved to the quarantine, loudly, so it holds back nothing after it.
     */
    private void writeOneByOne(List<Spool.Entry> batch) throws SQLException {
        for (Spool.Entry e : batch) {
            try {
                writeBatch(List.of(e));
            } catch (SQLException refused) {
                if (!PgConnector.refusesTheRecord(refused)) {
                    throw refused;
                }
                java.nio.file.Path moved = spool.quarantine(e, refused.getMessage());
                LOG.error("job cache database {} refuses a queued {} for good ({}): set aside as {}; the records after it"
                        + " are written. Look at it, then delete it or write it by hand", connector.describe(),
                        e.record() instanceof Job j ? "job " + j.jid() : "return of " + ((JobReturn) e.record()).id()
                                + " to " + ((JobReturn) e.record()).jid(), refused.getMessage(), moved);
            }
        }
    }

    /**
     * A job this master saved lately is answered from memory (so also while the database is away); another
     * is read from the database, or from the spool while the database is away. One found nowhere while the
     * database is away is an error, never "no such job", so a return to it is not refused for good.
     */
    @Override
    public Optional<Job> job(String jid) {
        synchronized (recentJobs) {
            Job recent = recentJobs.get(jid);
            if (recent != null) {
                return Optional.of(recent); // every return asks for its job: this master's own need no query
            }
        }
        Optional<Job> waiting = queuedJobs().stream().filter(j -> j.jid().equals(jid)).reduce((a, b) -> b);
        try {
            Optional<Job> stored = read(c -> PgRows.job(c, jid));
            return stored.isPresent() ? stored : waiting;
        } catch (JobCacheException e) {
            if (waiting.isPresent()) {
                return waiting;
            }
            throw e;
        }
    }

    @Override
    public List<Job> jobsBetween(String firstJid, String lastJid) {
        List<Job> queued = queuedJobs();
        List<Job> out = new ArrayList<>(readOrQueued(c -> PgRows.jobsBetween(c, firstJid, lastJid), List.of(), !queued.isEmpty()));
        Set<String> seen = new HashSet<>();
        out.forEach(j -> seen.add(j.jid()));
        for (Job j : queued) {
            if ((firstJid == null || j.jid().compareTo(firstJid) >= 0)
                    && (lastJid == null || j.jid().compareTo(lastJid) <= 0) && seen.add(j.jid())) {
                out.add(j);
            }
        }
        out.sort((a, b) -> a.jid().compareTo(b.jid()));
        return out;
    }

    @Override
    public List<JobReturn> returns(String jid) {
        List<JobReturn> queued = queuedReturns(jid);
        List<JobReturn> out = new ArrayList<>(readOrQueued(c -> PgRows.returns(c, jid), List.of(), !queued.isEmpty()));
        Set<String> seen = new HashSet<>();
        out.forEach(r -> seen.add(r.id()));
        for (JobReturn r : queued) {
            if (seen.add(r.id())) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The jobs waiting in the spool, from its index in memory, asked before the database: a record written back in
     * between is then found in the database, never missed. Empty (and cheap) whenever the database keeps up.
     */
    private List<Job> queuedJobs() {
        if (spool.isEmpty()) {
            return List.of(); // the usual case, answered without waiting behind the writes
        }
        return write(spool::jobs);
    }

    /** The returns to {@code jid} waiting in the spool: only their files are read. */
    private List<JobReturn> queuedReturns(String jid) {
        if (spool.isEmpty()) {
            return List.of();
        }
        return write(() -> spool.returns(jid));
    }

    @Override
    public int trimReturnsPerMinion(int max) {
        return write(() -> {
            if (writer == null) {
                return 0; // the quota is enforced again once the database is back
            }
            try {
                return PgMaintenance.trim(writer, max);
            } catch (SQLException e) {
                failed(e);
                return 0;
            }
        });
    }

    @Override
    public void prune(Instant cutoff) {
        synchronized (recentJobs) {
            recentJobs.values().removeIf(j -> j.started().isBefore(cutoff));
        }
        write(() -> {
            if (writer != null) {
                try {
                    int pruned = PgMaintenance.prune(writer, cutoff);
                    if (pruned > 0) {
                        LOG.debug("job cache: forgot {} jobs started before {}", pruned, cutoff);
                    }
                } catch (SQLException e) {
                    failed(e);
                }
            }
            return null;
        });
    }

    /** Lets the writes already asked for finish, then closes; what is still queued stays on disk for the next start. */
    @Override
    public void close() {
        writes.shutdown();
        try {
            if (!writes.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("job cache: writes still pending after {} s, closing anyway", CLOSE_WAIT_SECONDS);
                writes.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reads.close();
        if (writer != null) {
            if (slots != null) {
                slots.release(writer);
            }
            closeQuietly(writer);
            writer = null;
        }
        if (!spool.isEmpty()) {
            LOG.warn("job cache: {} records stay queued in {} until the next start", spool.count(), spool.dir());
        }
    }

    /**
     * Reads from the database, reconnecting once after a lost connection. When the database is away and
     * the spool holds something, the answer is the spool's alone (the master serves what it can).
     */
    private <T> T readOrQueued(PgReader.Query<T> query, T none, boolean anyQueued) {
        try {
            return read(query);
        } catch (JobCacheException e) {
            if (!anyQueued) {
                throw e;
            }
            LOG.warn("job cache: answering from the queue alone: {}", e.getMessage());
            return none;
        }
    }

    private <T> T read(PgReader.Query<T> query) {
        if (away) {
            throw new JobCacheException("job cache database " + connector.describe() + " is unreachable (retried every second)");
        }
        return reads.read(query);
    }

    private <T> T write(Callable<T> task) {
        Future<T> done;
        try {
            done = writes.submit(task);
        } catch (RejectedExecutionException e) {
            throw new JobCacheException("job cache " + connector.describe() + " is closed");
        }
        try {
            return done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof JobCacheException j) {
                throw j;
            }
            throw new JobCacheException("job cache " + connector.describe() + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobCacheException("interrupted while writing to the job cache", e);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            LOG.debug("job cache: closing a connection failed: {}", e.getMessage());
        }
    }
}
