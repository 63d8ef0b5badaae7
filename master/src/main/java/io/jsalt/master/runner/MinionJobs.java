package io.jsalt.master.runner;

import io.jsalt.master.events.EventBus;
import io.jsalt.master.events.EventListener;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.master.targeting.TargetResolver.Resolution;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.target.InvalidTargetException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an execution function on the minions of a target for a runner (Salt's runners do it through a
 * LocalClient): the target is resolved as for {@code publish}, the job is stored, announced
 * ({@code salt/job/<jid>/new}) and published like any other, and the returns are gathered from the
 * master's own event bus until every minion published to has answered or the timeout is up. The
 * caller's thread (an MWorker) waits at most that timeout, and never more than {@link #MAX_WAIT}. An
 * undecided minion (grains unknown) that returns is in {@link Gathered#returns}; a silent one is not in
 * {@link Gathered#silent}, which lists only the expected minions (it may well not match the target).
 *
 * <p>The returns arrive through the other MWorkers, so at most {@code worker_threads - 1} runner calls may
 * wait at once: one more is refused at once rather than leaving no MWorker to take the returns it waits for.
 */
public final class MinionJobs {
    private static final Logger log = LoggerFactory.getLogger(MinionJobs.class);

    /** The longest an MWorker waits for minions, whatever a caller or the configuration asks. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(300);

    private final TargetResolver targets;
    private final JobCache jobs;
    private final Jids jids;
    private final EventBus events;
    private final JobPublisher publisher;
    private final IntSupplier workerThreads;
    private final AtomicInteger waiting = new AtomicInteger();

    /** @param workerThreads the size of the MWorker pool now ({@code worker_threads}, which may change live) */
    public MinionJobs(TargetResolver targets, JobCache jobs, Jids jids, EventBus events, JobPublisher publisher,
                      IntSupplier workerThreads) {
        this.targets = targets;
        this.jobs = jobs;
        this.jids = jids;
        this.events = events;
        this.publisher = publisher;
        this.workerThreads = workerThreads;
    }

    /** {@link #run(String, List, String, String, Object, Duration)} on every accepted minion ({@code '*'}). */
    public Gathered run(String fun, List<Object> arg, String user, Duration timeout) {
        return run(fun, arg, user, "glob", "*", timeout);
    }

    /**
     * @throws RunnerException          when every other MWorker is already waiting for minions
     * @throws InvalidTargetException for a target that cannot be matched
     */
    public Gathered run(String fun, List<Object> arg, String user, String tgtType, Object tgt, Duration timeout) {
        Resolution target = targets.resolve(tgtType, tgt); // a bad target fails before anything waits
        int free = workerThreads.getAsInt() - 1;
        if (waiting.incrementAndGet() > free) {
            waiting.decrementAndGet();
            throw new RunnerException("no MWorker is free to take the minions' returns (worker_threads is "
                    + workerThreads.getAsInt() + ": at most " + Math.max(free, 0) + " runner call(s) may wait for minions"
                    + " at once): try again later, or raise worker_threads");
        }
        try {
            return publishAndGather(fun, arg, user, target, timeout.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : timeout);
        } finally {
            waiting.decrementAndGet();
        }
    }

    private Gathered publishAndGather(String fun, List<Object> arg, String user, Resolution target, Duration timeout) {
        List<String> minions = target.expected();
        List<String> publishTo = target.publishTo();
        String jid = jids.next();
        jobs.saveJob(new Job(jid, fun, arg, target.tgt(), target.tgtType(), user, minions, Instant.now()));

        Set<String> reached = Set.copyOf(publishTo);
        Map<String, Object> returns = Collections.synchronizedMap(new LinkedHashMap<>());
        CountDownLatch all = new CountDownLatch(1);
        String prefix = "salt/job/" + jid + "/ret/";
        EventListener gather = event -> {
            if (!event.tag().startsWith(prefix)) {
                return;
            }
            String id = event.tag().substring(prefix.length());
            if (reached.contains(id)) {
                synchronized (returns) {
                    returns.putIfAbsent(id, event.data().get("return"));
                    if (returns.size() == reached.size()) {
                        all.countDown();
                    }
                }
            }
        };
        events.addListener(gather); // before publishing: no return can come before we listen
        try {
            Map<String, Object> created = new LinkedHashMap<>();
            created.put("jid", jid);
            created.put("tgt_type", target.tgtType());
            created.put("tgt", target.tgt());
            created.put("user", user);
            created.put("fun", fun);
            created.put("arg", arg);
            created.put("minions", minions);
            created.put("missing", target.missing());
            events.fire("salt/job/" + jid + "/new", created);
            if (!publishTo.isEmpty()) {
                publisher.publish(new PublishLoad(fun, arg, target.tgt(), jid, "", target.tgtType(), user), publishTo);
                log.info("runner published job {} ({}) to {} minion(s)", jid, fun, publishTo.size());
                awaitAll(all, timeout);
            }
        } finally {
            events.removeListener(gather);
        }
        synchronized (returns) {
            return new Gathered(jid, minions, new LinkedHashMap<>(returns));
        }
    }

    private static void awaitAll(CountDownLatch all, Duration timeout) {
        try {
            all.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the MWorker is being stopped: answer with what came
        }
    }
}
