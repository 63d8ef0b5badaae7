package io.jsalt.minion.jobs;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops an executor without interrupting its threads first: an interrupt inside a JeroMQ call can close
 * the context's internal channels. Only what is still running after the grace period is interrupted.
 */
public final class ExecutorShutdown {
    private static final Logger log = LoggerFactory.getLogger(ExecutorShutdown.class);

    private ExecutorShutdown() {}

    public static void gracefully(ExecutorService executor, Duration grace, String what) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                log.info("{}: still busy after {} ms; interrupting", what, grace.toMillis());
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
