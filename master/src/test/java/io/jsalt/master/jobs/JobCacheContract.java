package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link JobCache} must do; each implementation's test extends this. */
abstract class JobCacheContract {
    static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");

    JobCache cache;

    /** A new, empty cache of the implementation under test. */
    abstract JobCache newCache();

    @BeforeEach
    void openCache() {
        cache = newCache();
    }

    @AfterEach
    void tearDown() {
        cache.close();
    }

    @Test
    void keepsAJobByJid() {
        Job job = job("20260101120000000001", T0);
        cache.saveJob(job);

        assertThat(cache.job("20260101120000000001")).contains(job);
        assertThat(cache.job("20260101120000000002")).isEmpty();
    }

    @Test
    void listsTheJobsOfAJidRangeInJidOrderWithBothEndsIncluded() {
        for (String jid : List.of("20260101120000000003", "20260101120000000001", "20260101130000000000",
                "20260101110000000000", "20260101120000000002")) {
            cache.saveJob(job(jid, T0));
        }

        assertThat(cache.jobsBetween("20260101120000000001", "20260101120000000003")).extracting(Job::jid)
                .containsExactly("20260101120000000001", "20260101120000000002", "20260101120000000003");
        assertThat(cache.jobsBetween(null, "20260101120000000001")).extracting(Job::jid)
                .containsExactly("20260101110000000000", "20260101120000000001");
        assertThat(cache.jobsBetween("20260101120000000003", null)).extracting(Job::jid)
                .containsExactly("20260101120000000003", "20260101130000000000");
        assertThat(cache.jobsBetween(null, null)).hasSize(5).first().isEqualTo(job("20260101110000000000", T0));
        assertThat(cache.jobsBetween("20260101140000000000", null)).isEmpty();
    }

    @Test
    void keepsReturnsInArrivalOrderAndRefusesASecondFromTheSameMinion() {
        String jid = "20260101120000000001";
        assertThat(cache.saveReturn(ret(jid, "web2", "first"))).isTrue();
        assertThat(cache.saveReturn(ret(jid, "web1", "first"))).isTrue();
        assertThat(cache.saveReturn(ret(jid, "web2", "again"))).isFalse();

        assertThat(cache.returns(jid)).extracting(JobReturn::id, JobReturn::ret)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("web2", "first"),
                        org.assertj.core.groups.Tuple.tuple("web1", "first"));
        assertThat(cache.returns("20260101120000000009")).isEmpty();
    }

    @Test
    void tellsWhetherOneMinionHasReturnedForOneJob() {
        cache.saveReturn(ret("20260101120000000001", "web1", 1));
        cache.saveReturn(ret("20260101120000000002", "web2", 2));

        assertThat(cache.hasReturn("20260101120000000001", "web1")).isTrue();
        assertThat(cache.hasReturn("20260101120000000001", "web2")).isFalse();
        assertThat(cache.hasReturn("20260101120000000002", "web1")).isFalse();
        assertThat(cache.hasReturn("20260101120000000009", "web1")).isFalse();
    }

    @Test
    void theSameMinionMayReturnForTwoJobs() {
        assertThat(cache.saveReturn(ret("20260101120000000001", "web1", 1))).isTrue();
        assertThat(cache.saveReturn(ret("20260101120000000002", "web1", 2))).isTrue();
    }

    @Test
    void trimmingKeepsTheNewestReturnsOfEachMinionUpToTheQuota() {
        for (int i = 0; i < 5; i++) {
            String jid = String.format("202601011200000000%02d", i);
            cache.saveReturn(new JobReturn(jid, "flood", i, 0, true, T0.plusSeconds(i)));
        }
        cache.saveReturn(new JobReturn("20260101120000000000", "quiet", "q", 0, true, T0));

        assertThat(cache.trimReturnsPerMinion(2)).isEqualTo(3);

        assertThat(cache.returns("20260101120000000004")).extracting(JobReturn::id).containsExactly("flood");
        assertThat(cache.returns("20260101120000000003")).extracting(JobReturn::id).containsExactly("flood");
        assertThat(cache.returns("20260101120000000002")).isEmpty();
        assertThat(cache.returns("20260101120000000000")).extracting(JobReturn::id).containsExactly("quiet");
        assertThat(cache.trimReturnsPerMinion(2)).isZero();
    }

    @Test
    void pruneForgetsOldJobsWithTheirReturns() {
        cache.saveJob(job("20260101110000000001", T0.minusSeconds(3600)));
        cache.saveJob(job("20260101120000000001", T0));
        cache.saveReturn(ret("20260101110000000001", "web1", true));
        cache.saveReturn(ret("20260101120000000001", "web1", true));

        cache.prune(T0.minusSeconds(60));

        assertThat(cache.job("20260101110000000001")).isEmpty();
        assertThat(cache.returns("20260101110000000001")).isEmpty();
        assertThat(cache.job("20260101120000000001")).isPresent();
        assertThat(cache.returns("20260101120000000001")).hasSize(1);
    }

    @Test
    void concurrentDuplicatesAreCountedOnce() throws InterruptedException {
        String jid = "20260101120000000001";
        java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    if (cache.saveReturn(ret(jid, "web" + i, true))) {
                        accepted.incrementAndGet();
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        assertThat(accepted).hasValue(200);
        assertThat(cache.returns(jid)).hasSize(200);
    }

    @Test
    void keepsWhetherEachReturnWasVerified() {
        String jid = "20260101120000000077";
        assertThat(cache.saveReturn(new JobReturn(jid, "signer", true, 0, true, T0, true))).isTrue();
        assertThat(cache.saveReturn(new JobReturn(jid, "salt-minion", true, 0, true, T0, false))).isTrue();

        assertThat(cache.returns(jid)).extracting(JobReturn::id, JobReturn::verified).containsExactly(
                org.assertj.core.groups.Tuple.tuple("signer", true), org.assertj.core.groups.Tuple.tuple("salt-minion", false));
    }

    static Job job(String jid, Instant started) {
        return new Job(jid, "test.ping", List.of(), "*", "glob", "root", List.of("web1"), started);
    }

    static JobReturn ret(String jid, String id, Object value) {
        return new JobReturn(jid, id, value, 0, true, T0);
    }
}
