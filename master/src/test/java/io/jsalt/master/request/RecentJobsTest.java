package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.MemoryJobCache;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The returns' memory of recent jobs: one job-cache read per job and TTL, a set of its minions, nothing kept for a missing job. */
class RecentJobsTest {
    private static final String JID = "20260101120000123456";

    private final AtomicInteger reads = new AtomicInteger();
    private final MemoryJobCache cache = new MemoryJobCache();
    /** The cache, counting the job reads. */
    private final JobCache counted = new JobCache() {
        @Override
        public void saveJob(Job job) {
            cache.saveJob(job);
        }

        @Override
        public Optional<Job> job(String jid) {
            reads.incrementAndGet();
            return cache.job(jid);
        }

        @Override
        public List<Job> jobsBetween(String firstJid, String lastJid) {
            return cache.jobsBetween(firstJid, lastJid);
        }

        @Override
        public boolean saveReturn(JobReturn ret) {
            return cache.saveReturn(ret);
        }

        @Override
        public List<JobReturn> returns(String jid) {
            return cache.returns(jid);
        }

        @Override
        public int trimReturnsPerMinion(int max) {
            return cache.trimReturnsPerMinion(max);
        }

        @Override
        public void prune(Instant cutoff) {
            cache.prune(cutoff);
        }

        @Override
        public void close() {
            cache.close();
        }
    };
    private final AtomicLong now = new AtomicLong();
    private final RecentJobs recent = new RecentJobs(counted, now::get);

    @AfterEach
    void close() {
        cache.close();
    }

    @Test
    void theReturnsOfOneJobReadItOnceAndFindTheirMinionInASet() {
        cache.saveJob(new Job(JID, "test.ping", List.of(), "*", "glob", "root", List.of("web1", "web2"), Instant.now()));

        for (int i = 0; i < 100; i++) {
            assertThat(recent.job(JID)).get().satisfies(e -> assertThat(e.minions()).containsExactlyInAnyOrder("web1", "web2"));
        }

        assertThat(reads).hasValue(1);
    }

    @Test
    void aJobIsReadAgainOnceItsEntryIsOlderThanTheTtl() {
        cache.saveJob(new Job(JID, "test.ping", List.of(), "*", "glob", "root", List.of("web1"), Instant.now()));
        recent.job(JID);

        now.addAndGet(RecentJobs.TTL.toNanos());
        recent.job(JID);

        assertThat(reads).hasValue(2);
    }

    @Test
    void aMissingJobIsNotRememberedAsMissing() {
        assertThat(recent.job(JID)).isEmpty();
        cache.saveJob(new Job(JID, "test.ping", List.of(), "*", "glob", "root", List.of("web1"), Instant.now()));

        assertThat(recent.job(JID)).isPresent();
    }

    @Test
    void itHoldsAtMostItsCapacityOfJobs() {
        for (int i = 0; i <= RecentJobs.CAPACITY; i++) {
            String jid = String.format("2026010112%010d", i);
            cache.saveJob(new Job(jid, "test.ping", List.of(), "*", "glob", "root", List.of("web1"), Instant.now()));
            recent.job(jid);
        }
        int before = reads.get();

        recent.job(String.format("2026010112%010d", 0)); // the eldest, evicted

        assertThat(reads.get()).isEqualTo(before + 1);
    }
}
