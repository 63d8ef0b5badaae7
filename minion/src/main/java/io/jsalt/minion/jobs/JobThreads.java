package io.jsalt.minion.jobs;

import java.time.Duration;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads a minion runs its jobs on: at most {@code process_count_max} at once, further jobs wait in
 * order; a new thread only when no idle one can take the job, and an idle thread ends after {@code keepAlive},
 * all but one (so a job queued at the maximum always has a thread left to take it).
 * A fixed pool (a {@code ThreadPoolExecutor} whose core size is the maximum) starts a thread for each of the
 * first 20 jobs even when one sits idle, and keeps all 20 for good: each holds its stack and its share of
 * malloc's arenas, ~5 MiB of an idle minion's RSS after a few dozen sequential jobs (docs/BENCHMARKS.md).
 */
final class JobThreads extends ThreadPoolExecutor {
    JobThreads(int max, Duration keepAlive, String threadName) {
        super(1, max, keepAlive.toMillis(), TimeUnit.MILLISECONDS, new HandOffFirst(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        }, (job, pool) -> {
            // all threads busy: the job waits in the queue, as with a fixed pool (refused after shutdown)
            if (pool.isShutdown()) {
                throw new java.util.concurrent.RejectedExecutionException("the job pool is shut down");
            }
            ((HandOffFirst) pool.getQueue()).enqueue(job);
        });
    }

    /**
     * The executor offers each job here first: taken only by a thread waiting for work, so the executor
     * starts a new thread (up to the maximum) rather than queue it while threads could run it; at the
     * maximum the rejection handler queues it.
     */
    private static final class HandOffFirst extends LinkedTransferQueue<Runnable> {
        @Override
        public boolean offer(Runnable job) {
            return tryTransfer(job);
        }

        void enqueue(Runnable job) {
            super.offer(job);
        }
    }
}
