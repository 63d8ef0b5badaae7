package io.jsalt.master.request;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The jobs the returns of the last seconds answer, kept in memory: every return of a job to N minions looked its
 * job up in the job cache and its minion list through, reading and unpacking an N-entry list per return (a
 * fan-out's returns cost O(N²); 25 of 98 profile samples of the return handler at N = 1,000). A job never
 * changes once published; an entry lives {@link #TTL} at most, so a job the cache has pruned since is not
 * believed for long. Only jobs found are kept. Thread-safe (the MWorkers share it).
 */
final class RecentJobs {
    static final Duration TTL = Duration.ofSeconds(10);
    static final int CAPACITY = 256;

    /** A published job, with its minion list as a set for the per-return look-up. */
    record Entry(Job job, Set<String> minions, long loadedNanos) {}

    private final JobCache jobs;
    private final LongSupplier nanoClock;
    private final Map<String, Entry> recent = new LinkedHashMap<>(CAPACITY * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > CAPACITY;
        }
    };

    RecentJobs(JobCache jobs) {
        this(jobs, System::nanoTime);
    }

    RecentJobs(JobCache jobs, LongSupplier nanoClock) {
        this.jobs = jobs;
        this.nanoClock = nanoClock;
    }

    /** The job {@code jid}, from memory when it was looked up less than {@link #TTL} ago, else from the job cache. */
    Optional<Entry> job(String jid) {
        long now = nanoClock.getAsLong();
        synchronized (recent) {
            Entry e = recent.get(jid);
            if (e != null && now - e.loadedNanos() < TTL.toNanos()) {
                return Optional.of(e);
            }
        }
        Optional<Job> found = jobs.job(jid); // outside the lock: a database read
        if (found.isEmpty()) {
            synchronized (recent) {
                recent.remove(jid);
            }
            return Optional.empty();
        }
        Job j = found.get();
        Entry e = new Entry(j, j.minions() == null ? Set.of() : new HashSet<>(j.minions()), now);
        synchronized (recent) {
            recent.put(jid, e);
        }
        return Optional.of(e);
    }
}
