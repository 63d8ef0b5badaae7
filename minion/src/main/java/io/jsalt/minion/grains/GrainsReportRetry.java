package io.jsalt.minion.grains;

import io.jsalt.minion.jobs.ExecutorShutdown;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a sign-in's grains report again when the master did not answer it (a loaded master lets the {@code _pillar}
 * request time out): otherwise the master would not know the grains, and the minion would keep an empty or old
 * pillar until the next sign-in or {@code saltutil.refresh_pillar}. A few tries, each after a longer wait; a try is
 * skipped, and the retries end, once the sign-in it belongs to is over (the link went away, the minion stops). The
 * thread exists only while a retry waits.
 */
public final class GrainsReportRetry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GrainsReportRetry.class);
    /** The waits before each try: about half a minute in all, then the next sign-in or refresh is the chance. */
    public static final List<Duration> BACKOFF = List.of(Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8),
            Duration.ofSeconds(16));

    private final String minionId;
    private final List<Duration> backoff;
    private final ScheduledThreadPoolExecutor timer;
    private final Duration grace;

    /**
     * @param backoff the wait before each try, in order; as many tries as waits
     * @param grace   how long closing waits for a try under way (a request to the master)
     */
    public GrainsReportRetry(String minionId, List<Duration> backoff, Duration grace) {
        this.minionId = minionId;
        this.grace = grace;
        this.backoff = List.copyOf(backoff);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, minionId + "-grains-report-retry");
            t.setDaemon(true);
            return t;
        });
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * Tries {@code send} again in the background until it returns true or the tries run out.
     *
     * @param send       sends the report once; true when the master answered (it logs its own failure)
     * @param stillValid false once the sign-in this report belongs to is over: no more tries then
     */
    public void retry(BooleanSupplier send, BooleanSupplier stillValid) {
        schedule(0, send, stillValid);
    }

    private void schedule(int attempt, BooleanSupplier send, BooleanSupplier stillValid) {
        if (attempt >= backoff.size()) {
            log.warn("{}: the master has not answered the grains report after {} more tries; the pillar stays as it was until "
                    + "the next sign-in or saltutil.refresh_pillar (state runs ask for their own)", minionId, backoff.size());
            return;
        }
        Duration wait = backoff.get(attempt);
        log.info("{}: sending the grains report again in {} s (try {} of {})", minionId, wait.toSeconds(), attempt + 1,
                backoff.size());
        try {
            timer.schedule(() -> {
                if (stillValid.getAsBoolean() && !send.getAsBoolean()) {
                    schedule(attempt + 1, send, stillValid);
                }
            }, wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closing: the minion stops, nothing to retry for
        }
    }

    @Override
    public void close() {
        // not interrupted at once: an interrupt inside a JeroMQ call can close the context's internal channels
        ExecutorShutdown.gracefully(timer, grace, minionId + " grains report retry");
    }
}
