package io.jsalt.minion.jobs;

import io.jsalt.transport.message.PublishLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs this minion is running: what {@code saltutil.running} lists and {@code saltutil.kill_job} ends.
 * Each job has a proc record while it runs, and may have a deadline (its {@code timeout}) after which it is
 * ended as {@code kill_job} would end it. Deadlines run on a timer thread of their own, so a pool busy with
 * jobs cannot delay them.
 */
public final class RunningJobs implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RunningJobs.class);

    private final ProcRecords records;
    private final Map<String, RunningJob> jobs = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor timer;

    /** @param records where proc records go; null keeps none (a runner tested alone) */
    public RunningJobs(ProcRecords records, String minionId) {
        this.records = records;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-job-deadlines-" + minionId);
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        if (records != null) {
            records.removeStale();
        }
    }

    /** Registers the job the calling thread is about to run, with its proc record and optional deadline. */
    public Handle start(PublishLoad load, Duration timeout) {
        RunningJob job = new RunningJob(load, Thread.currentThread(), this::record);
        jobs.put(load.jid(), job);
        record(job);
        ScheduledFuture<?> deadline = null;
        if (timeout != null) {
            deadline = timer.schedule(() -> {
                if (job.end(RunningJob.Ending.TIMED_OUT, false)) {
                    log.info("job {} ({}) timed out after {} ms; ended", load.jid(), load.fun(), timeout.toMillis());
                }
            }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        return new Handle(job, deadline);
    }

    /** The running jobs, oldest first by jid. */
    public List<RunningJob> list() {
        List<RunningJob> all = new ArrayList<>(jobs.values());
        all.sort((a, b) -> a.jid().compareTo(b.jid()));
        return all;
    }

    public Optional<RunningJob> find(String jid) {
        return Optional.ofNullable(jid == null ? null : jobs.get(jid));
    }

    private void record(RunningJob job) {
        if (records != null) {
            records.write(job.jid(), job.procData());
        }
    }

    /** The job the caller is running; {@link #close()} it when the job's function has returned. */
    public final class Handle implements AutoCloseable {
        private final RunningJob job;
        private final ScheduledFuture<?> deadline;

        private Handle(RunningJob job, ScheduledFuture<?> deadline) {
            this.job = job;
            this.deadline = deadline;
        }

        public RunningJob job() {
            return job;
        }

        @Override
        public void close() {
            if (deadline != null) {
                deadline.cancel(false);
            }
            job.finish();
            jobs.remove(job.jid(), job);
            if (records != null) {
                records.remove(job.jid());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
