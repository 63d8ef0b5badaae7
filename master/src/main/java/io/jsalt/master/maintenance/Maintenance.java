package io.jsalt.master.maintenance;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.process.Service;
import io.jsalt.master.session.SessionKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's housekeeping thread (Salt's Maintenance process). Every {@code loop_interval} it rotates the
 * session key once {@code publish_session} seconds have passed since the last rotation and forgets jobs
 * older than {@code keep_jobs_seconds} (0 keeps them forever), runs the presence round (which fires only
 * under {@code presence_events}, see {@link Presence}); every {@code healthInterval} it runs the
 * health check (the transport probe). Settings are read live, so a reload applies at the next round.
 */
public final class Maintenance implements Service {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);

    private final Supplier<MasterConfig> config;
    private final SessionKey sessionKey;
    private final JobCache jobs;
    private final Consumer<MasterConfig> presence;
    private final Runnable healthCheck;
    private final Duration healthInterval;
    private volatile Thread thread;
    private volatile CountDownLatch stop;
    /** When the key was last rotated by this loop; the master made a fresh key at start. */
    private volatile long rotatedAt = System.nanoTime();
    private volatile String crash;

    public Maintenance(Supplier<MasterConfig> config, SessionKey sessionKey, JobCache jobs, Runnable healthCheck,
            Duration healthInterval) {
        this(config, sessionKey, jobs, c -> { }, healthCheck, healthInterval);
    }

    /** @param presence run each round with the configuration of that round: {@link Presence} in a master */
    public Maintenance(Supplier<MasterConfig> config, SessionKey sessionKey, JobCache jobs,
            Consumer<MasterConfig> presence, Runnable healthCheck, Duration healthInterval) {
        this.config = config;
        this.sessionKey = sessionKey;
        this.jobs = jobs;
        this.presence = presence;
        this.healthCheck = healthCheck;
        this.healthInterval = healthInterval;
    }

    @Override
    public String name() {
        return "maintenance";
    }

    @Override
    public void start() {
        CountDownLatch latch = new CountDownLatch(1);
        Thread t = new Thread(() -> loop(latch), "jsalt-maintenance");
        t.setDaemon(true);
        stop = latch;
        crash = null;
        thread = t;
        t.start();
    }

    private void loop(CountDownLatch stopped) {
        long nextRound = System.nanoTime() + seconds(config.get().loopInterval());
        long nextHealth = System.nanoTime() + healthInterval.toNanos();
        try {
            while (!stopped.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(nextRound, nextHealth) - System.nanoTime())),
                    TimeUnit.MILLISECONDS)) {
                long now = System.nanoTime();
                if (now - nextRound >= 0) {
                    runRound(now);
                    nextRound = now + seconds(config.get().loopInterval());
                }
                if (now - nextHealth >= 0) {
                    healthCheck.run();
                    nextHealth = System.nanoTime() + healthInterval.toNanos();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the thread ends here; the supervisor sees it and starts a new one
            crash = e.toString();
            log.error("maintenance stopped: {}", crash);
        }
    }

    /** One maintenance round: what {@code loop_interval} paces. */
    void runRound(long now) {
        MasterConfig c = config.get();
        if (now - rotatedAt >= seconds(c.publishSession())) {
            sessionKey.rotateScheduled(java.time.Duration.ofSeconds(c.publishSession()), "publish_session of " + c.publishSession() + " s elapsed");
            rotatedAt = now;
        }
        if (c.keepJobsSeconds() > 0) {
            jobs.prune(Instant.now().minusSeconds(c.keepJobsSeconds()));
        }
        int quota = c.abuseLimits().jobCacheMaxReturnsPerMinion();
        if (quota > 0) {
            int forgotten = jobs.trimReturnsPerMinion(quota);
            if (forgotten > 0) {
                log.info("job cache: forgot {} returns beyond job_cache_max_returns_per_minion ({})", forgotten, quota);
            }
        }
        presence.accept(c);
        log.debug("maintenance round done");
    }

    private static long seconds(int s) {
        return TimeUnit.SECONDS.toNanos(s);
    }

    @Override
    public Optional<String> failure() {
        Thread t = thread;
        if (t == null || t.isAlive() || stop.getCount() == 0) {
            return Optional.empty();
        }
        return Optional.of("the maintenance thread stopped" + (crash == null ? "" : ": " + crash));
    }

    @Override
    public void close() {
        Thread t = thread;
        CountDownLatch s = stop;
        if (t == null) {
            return;
        }
        s.countDown();
        if (t != Thread.currentThread()) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
    }
}
