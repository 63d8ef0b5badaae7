package io.jsalt.minion.schedule;

import io.jsalt.crypto.Rsa;
import io.jsalt.minion.modules.ModuleSource;
import io.jsalt.minion.returns.Returner;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.ReturnLoad;
import java.security.PrivateKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the minion's scheduled jobs (Puppet's periodic agent run, Salt's minion schedule) on one thread of
 * its own, each every interval after a random first splay, never two runs of one job at once. Each
 * result goes to the master as a return with jid {@code "req"}, for which the master assigns a jid of its
 * own and fires {@code salt/job/<jid>/ret/<id>} (as it does for salt-call), carrying {@code schedule: <name>}.
 */
public final class ScheduleRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ScheduleRunner.class);

    private final String minionId;
    private final List<ScheduledJob> jobs;
    private final ModuleSource modules;
    private final Returner returner;
    private final PrivateKey signingKey;
    private final ScheduledThreadPoolExecutor timer;

    /**
     * @param signingKey the minion key that signs returns; null leaves them to the returner (its seal) or unsigned
     */
    public ScheduleRunner(String minionId, List<ScheduledJob> jobs, ModuleRegistry registry, Returner returner, PrivateKey signingKey) {
        this(minionId, jobs, ModuleSource.fixed(registry), returner, signingKey);
    }

    /** Each run leases the functions from {@code modules}, so a run after a module reload sees the new ones. */
    public ScheduleRunner(String minionId, List<ScheduledJob> jobs, ModuleSource modules, Returner returner, PrivateKey signingKey) {
        this.minionId = minionId;
        this.jobs = List.copyOf(jobs);
        this.modules = modules;
        this.returner = returner;
        this.signingKey = signingKey;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-schedule-" + minionId);
            t.setDaemon(true);
            return t;
        });
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    public void start() {
        for (ScheduledJob job : jobs) {
            long first = job.firstDelay(ThreadLocalRandom.current()).toMillis();
            log.info("scheduled job {} runs {} every {} s, first in {} ms", job.name(), job.function(), job.interval().toSeconds(), first);
            timer.scheduleAtFixedRate(() -> run(job), first, job.interval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void run(ScheduledJob job) {
        try {
            log.debug("running scheduled job {} ({})", job.name(), job.function());
            List<Object> wireArgs = job.wireArgs();
            CallResult result;
            try (ModuleSource.Lease lease = modules.acquire()) {
                result = lease.registry().call(job.function(), wireArgs);
            }
            returner.deliver(returnLoad(job, wireArgs, result), "req");
        } catch (RuntimeException e) {
            // a failing run must not cancel the schedule (scheduleAtFixedRate stops on an exception)
            log.error("scheduled job {} failed: {}", job.name(), e.toString());
        }
    }

    private Map<String, Object> returnLoad(ScheduledJob job, List<Object> wireArgs, CallResult result) {
        Map<String, Object> load = new ReturnLoad(minionId, "req", job.function(), wireArgs, result.ret(), result.retcode(),
                result.success()).toLoad();
        load.put("schedule", job.name()); // Salt's scheduled returns name their schedule entry
        if (signingKey != null) {
            load.put("sig", Rsa.sign(signingKey, SaltPack.packBinType(load)));
        }
        return load;
    }

    @Override
    public void close() {
        io.jsalt.minion.jobs.ExecutorShutdown.gracefully(timer, java.time.Duration.ofSeconds(2), "schedule");
    }
}
