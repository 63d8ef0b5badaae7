package io.jsalt.master.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.session.SessionKey;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaintenanceTest {
    @TempDir
    Path root;
    private final SessionKey sessionKey = new SessionKey();
    private final MemoryJobCache jobs = new MemoryJobCache();
    private final AtomicInteger healthChecks = new AtomicInteger();
    private Maintenance maintenance;

    @AfterEach
    void close() {
        if (maintenance != null) {
            maintenance.close();
        }
    }

    private MasterConfig config(int publishSession, int keepJobsSeconds) {
        return MasterConfig.builder(root).set("publish_session", publishSession).set("keep_jobs_seconds", keepJobsSeconds)
                .set("loop_interval", 1).build();
    }

    private Maintenance maintenance(MasterConfig config) {
        AtomicReference<MasterConfig> live = new AtomicReference<>(config);
        maintenance = new Maintenance(live::get, sessionKey, jobs, healthChecks::incrementAndGet, Duration.ofMillis(20));
        return maintenance;
    }

    private static Job startedAt(String jid, Instant started) {
        return new Job(jid, "test.ping", List.of(), "*", "glob", "root", List.of("alpha"), started);
    }

    @Test
    void rotatesTheSessionKeyOncePublishSessionHasPassed() {
        Maintenance m = maintenance(config(60, 0));
        String first = sessionKey.keyString();
        long start = System.nanoTime();

        m.runRound(start + TimeUnit.SECONDS.toNanos(30));
        assertThat(sessionKey.keyString()).as("30 s of a 60 s session").isEqualTo(first);

        m.runRound(start + TimeUnit.SECONDS.toNanos(61));
        String second = sessionKey.keyString();
        assertThat(second).isNotEqualTo(first);

        m.runRound(start + TimeUnit.SECONDS.toNanos(90));
        assertThat(sessionKey.keyString()).as("the session restarted at the rotation").isEqualTo(second);
    }

    @Test
    void forgetsJobsOlderThanKeepJobsSeconds() {
        Maintenance m = maintenance(config(86_400, 3600));
        jobs.saveJob(startedAt("20240101000000000000", Instant.now().minusSeconds(7200)));
        jobs.saveJob(startedAt("20240101000000000001", Instant.now().minusSeconds(60)));

        m.runRound(System.nanoTime());

        assertThat(jobs.job("20240101000000000000")).isEmpty();
        assertThat(jobs.job("20240101000000000001")).isPresent();
    }

    @Test
    void keepJobsSecondsZeroKeepsJobsForever() {
        Maintenance m = maintenance(config(86_400, 0));
        jobs.saveJob(startedAt("20000101000000000000", Instant.parse("2000-01-01T00:00:00Z")));

        m.runRound(System.nanoTime());

        assertThat(jobs.job("20000101000000000000")).isPresent();
    }

    @Test
    void itsThreadRotatesEveryLoopIntervalAndRunsTheHealthCheckInBetween() {
        Maintenance m = maintenance(config(1, 0));
        String first = sessionKey.keyString();

        m.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> !sessionKey.keyString().equals(first));
        assertThat(healthChecks.get()).isGreaterThan(3);
        assertThat(m.failure()).isEmpty();
        m.close();
        assertThat(m.failure()).as("a closed loop is not a dead one").isEmpty();
    }

    @Test
    void aHealthCheckThatThrowsKillsTheThreadSoTheSupervisorRestartsIt() {
        maintenance = new Maintenance(() -> config(86_400, 0), sessionKey, jobs, () -> {
            throw new IllegalStateException("probe broke");
        }, Duration.ofMillis(10));

        maintenance.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> maintenance.failure().isPresent());
        maintenance.close();
        maintenance.start();
        assertThat(maintenance.failure()).isEmpty();
    }
}
