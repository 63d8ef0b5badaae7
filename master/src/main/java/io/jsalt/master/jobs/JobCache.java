package io.jsalt.master.jobs;

import java.util.List;
import java.util.Optional;

/**
 * Where jobs and their returns are kept (Salt's master_job_cache). Implementations must refuse a second
 * return for the same (jid, id) themselves, so a replayed or duplicated return is never counted twice.
 */
public interface JobCache extends AutoCloseable {
    void saveJob(Job job);

    Optional<Job> job(String jid);

    /**
     * The jobs whose jid lies between {@code firstJid} and {@code lastJid}, both included, in jid order (a
     * jid is its start time, so this is a time range); a null bound leaves that end open.
     */
    List<Job> jobsBetween(String firstJid, String lastJid);

    /** Stores the return; false when that minion already returned for that job. */
    boolean saveReturn(JobReturn ret);

    /**
     * Stores the return and tells {@code done} once it is stored for good, without making the caller wait for
     * that where the store can (the SQLite cache answers from its writer thread after the commit, so an MWorker
     * goes on to its next request). A store that cannot answers here, before it returns: this default.
     */
    default void saveReturn(JobReturn ret, ReturnSaved done) {
        boolean stored;
        try {
            stored = saveReturn(ret);
        } catch (RuntimeException e) {
            done.failed(e);
            return;
        }
        done.saved(stored);
    }

    List<JobReturn> returns(String jid);

    /**
     * True when minion {@code id} has returned for job {@code jid}. A store answers it without reading the job's
     * other returns where it can (the late sign-in catch-up asks it per minion and missed job: reading every return
     * made a storm of N sign-ins cost O(N × jobs × N)); this default reads them.
     */
    default boolean hasReturn(String jid, String id) {
        return returns(jid).stream().anyMatch(r -> r.id().equals(id));
    }

    /**
     * Keeps at most {@code max} returns per minion, the newest, and forgets the older ones: the quota
     * ({@code job_cache_max_returns_per_minion}) that bounds what one minion can make the cache hold.
     *
     * @return how many returns were forgotten
     */
    int trimReturnsPerMinion(int max);

    /** Forgets jobs started before the cutoff, with their returns. */
    void prune(java.time.Instant cutoff);

    @Override
    void close();
}
