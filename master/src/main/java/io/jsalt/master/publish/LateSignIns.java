package io.jsalt.master.publish;

import io.jsalt.master.events.EventListener;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.Topics;
import io.jsalt.transport.target.InvalidTargetException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a minion that signs in late the jobs it missed. A job is published once; a minion whose key was accepted
 * but that was not listening then (still waiting to ask again after its key was accepted, restarting, reconnecting)
 * misses it, and the client waiting for it reports it silent after its whole timeout (Salt does the same). Here,
 * the publisher tells which targeted minions had no subscription when each job went out ({@link #missed}); when
 * one of them signs in ({@code salt/auth} with act {@code accept}) while such a job is in flight (published within
 * the last {@code timeout + gather_job_timeout}, the least a client waits for a silent minion; no return from it
 * yet; a target that still matches it, {@link TargetResolver#expects}), the job is published again to that minion
 * alone, with the same jid. That waits until the minion's subscription has reached the publish port (a frame sent
 * before would be lost again), at most {@link #SUBSCRIBE_WAIT} (a salt-minion without zmq_filtering subscribes to
 * everything and is never seen). A minion that was listening when the job went out is never sent it again (after a
 * session-key change it replays the frame it kept itself), and one is sent it again at most once once seen
 * listening; a minion runs a jid at most once whatever it is sent (its jid queue, as Salt's).
 *
 * <p>Threads: {@link #onEvent} and {@link #missed} run on the threads that fire the event or publish (MWorkers) and
 * only queue; everything else runs on the one thread of this class, {@code late-sign-ins}.
 */
public final class LateSignIns implements EventListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LateSignIns.class);
    /** How long a signed-in minion's subscription is waited for before its jobs go out anyway. */
    public static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);
    /** Minions named in one publication sent again (its list target), so a frame stays a few kB. */
    static final int MAX_IDS_PER_PUBLICATION = 500;
    private static final int LOGGED_IDS = 5;

    /** A minion waited for: when to stop waiting for its subscription, and the topics that show it. */
    private record Waiting(Instant giveUpAt, List<String> topics) {}

    private final JobCache jobs;
    private final TargetResolver targets;
    private final JobPublisher publisher;
    private final Supplier<Set<String>> subscribedTopics;
    private final Supplier<Duration> inFlightFor;
    private final Duration subscribeWait;
    private final Clock clock;
    private final ScheduledExecutorService worker;
    /**
     * One report of {@link #missed}: the targeted minions that were not listening when a job went out, and when. Kept
     * per job, not per minion: a fleet never seen subscribed (salt-minions without zmq_filtering) misses every job,
     * and one set per job costs a hash insert per minion where a map per minion and a sweep of every minion's
     * map per job leaving the window cost far more.
     */
    private record Batch(Instant at, Set<String> ids) {}

    /** Per missed job, in jid order, the minions that missed it (usually one batch). Worker thread only. */
    private final Map<String, List<Batch>> missedBy = new TreeMap<>();
    /**
     * The jobs some minion missed, each read from the job cache once found there (a job never changes once
     * published): a storm of N late sign-ins read each missed job, with its N-entry minion list, once per minion.
     * A job not found is not kept, so the next minion asks again. Worker thread only.
     */
    private final Map<String, Job> missedJobs = new HashMap<>();
    /** When each minion last signed in, for {@link #SUBSCRIBE_WAIT}, oldest first. Worker thread only. */
    private final Map<String, Instant> recentSignIns = new LinkedHashMap<>();
    /** Minions signed in with jobs due, each with the time to stop waiting for its subscription. Worker thread only. */
    private final Map<String, Waiting> waiting = new LinkedHashMap<>();
    private boolean ticking;

    /**
     * @param subscribedTopics the publish port's subscribed topics now
     * @param inFlightFor      how long after its publication a job counts as in flight
     * @param subscribeWait    how long to wait for a signed-in minion's subscription ({@link #SUBSCRIBE_WAIT})
     */
    public LateSignIns(JobCache jobs, TargetResolver targets, JobPublisher publisher, Supplier<Set<String>> subscribedTopics,
                       Supplier<Duration> inFlightFor, Duration subscribeWait, Clock clock) {
        this.jobs = jobs;
        this.targets = targets;
        this.publisher = publisher;
        this.subscribedTopics = subscribedTopics;
        this.inFlightFor = inFlightFor;
        this.subscribeWait = subscribeWait;
        this.clock = clock;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "late-sign-ins");
            t.setDaemon(true);
            return t;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.worker = executor;
    }

    /** Job {@code jid} went out while the targeted minions {@code ids} had no subscription. */
    public void missed(String jid, List<String> ids) {
        Instant at = clock.instant();
        List<String> copy = List.copyOf(ids);
        run(() -> {
            forgetOldJobs(at);
            missedBy.computeIfAbsent(jid, k -> new ArrayList<>(1)).add(new Batch(at, new HashSet<>(copy)));
            Instant now = clock.instant();
            forgetOldSignIns(now);
            if (recentSignIns.isEmpty()) {
                return;
            }
            // it signed in while the job was being sent, before this was known: it waits for its subscription as
            // after a sign-in. Its jobs are looked at when it is ready, not here: a fleet that is never seen
            // subscribed (salt-minions without zmq_filtering) misses every job, and this runs per job
            boolean any = false;
            for (String id : copy) {
                if (recentSignIns.containsKey(id)) {
                    waiting.putIfAbsent(id, new Waiting(now.plus(subscribeWait), Topics.listeningTopicsOf(id)));
                    any = true;
                }
            }
            if (any && !ticking) {
                tick();
            }
        });
    }

    @Override
    public void onEvent(EventFrame event) {
        if (!"salt/auth".equals(event.tag()) || event.data().containsKey("master_id") // signed in to another master
                || !"accept".equals(event.data().get("act"))
                || !Boolean.TRUE.equals(event.data().get("result")) || !(event.data().get("id") instanceof String id)) {
            return;
        }
        run(() -> signedIn(id));
    }

    private void signedIn(String id) {
        Instant now = clock.instant();
        forgetOldJobs(now);
        forgetOldSignIns(now);
        recentSignIns.remove(id); // put again at the end: the map stays in sign-in order
        recentSignIns.put(id, now);
        if (due(id, new HashMap<>()).isEmpty()) {
            return; // the usual case: it missed nothing
        }
        waiting.putIfAbsent(id, new Waiting(now.plus(subscribeWait), Topics.listeningTopicsOf(id)));
        if (!ticking) {
            tick(); // at once: a minion already listening (signing in again) gets its jobs now
        }
    }

    /** Sends the jobs of every waiting minion that now listens (or has been waited for long enough). */
    private void tick() {
        try {
            sendToReady();
        } finally {
            ticking = !waiting.isEmpty();
            if (ticking) {
                try {
                    worker.schedule(() -> guarded(this::tick), POLL.toMillis(), TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    ticking = false; // closing
                }
            }
        }
    }

    private void sendToReady() {
        Set<String> topics = subscribedTopics.get();
        Instant now = clock.instant();
        List<String> ready = new ArrayList<>();
        waiting.forEach((id, w) -> {
            if (Topics.isSubscribedBy(topics, w.topics()) || !now.isBefore(w.giveUpAt())) {
                ready.add(id);
            }
        });
        // each job once to all of its ready minions (one signature, one frame without zmq_filtering), in jid order
        Map<String, Job> jobsDue = new TreeMap<>();
        Map<String, List<String>> readyFor = new HashMap<>();
        Map<String, Predicate<String>> targetOf = new HashMap<>(); // each job's target compiled once per pass
        for (String id : ready) {
            Waiting w = waiting.remove(id);
            boolean listening = Topics.isSubscribedBy(topics, w.topics());
            if (!listening) {
                log.debug("{} signed in but its subscription was not seen within {} ms; sending its jobs anyway", id,
                        subscribeWait.toMillis());
            }
            for (Job job : due(id, targetOf)) {
                if (listening) {
                    // kept otherwise: a jsalt-call signing in with the minion's key does not listen, and the minion
                    // itself, signing in later, must still get the job
                    forget(id, job.jid());
                }
                jobsDue.putIfAbsent(job.jid(), job);
                readyFor.computeIfAbsent(job.jid(), k -> new ArrayList<>()).add(id);
            }
        }
        jobsDue.forEach((jid, job) -> {
            List<String> ids = readyFor.get(jid);
            for (int from = 0; from < ids.size(); from += MAX_IDS_PER_PUBLICATION) {
                List<String> some = ids.subList(from, Math.min(ids.size(), from + MAX_IDS_PER_PUBLICATION));
                publisher.publishTo(new PublishLoad(job.fun(), job.arg(), job.tgt(), jid, "", job.tgtType(), job.user()), some);
            }
            log.info("job {} ({}) published again to {}: signed in while the job was in flight", jid, job.fun(), names(ids));
        });
    }

    /** The ids for a log line: all of a few, the first few of many. */
    private static String names(List<String> ids) {
        return ids.size() <= LOGGED_IDS ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, LOGGED_IDS)) + " and " + (ids.size() - LOGGED_IDS) + " more";
    }

    /**
     * Forgets the sign-ins no longer recent, from the oldest on (the map is in sign-in order): older than the
     * subscription wait, and at least {@link #SUBSCRIBE_WAIT}, the most a sign-in and its subscription are apart.
     */
    private void forgetOldSignIns(Instant now) {
        Instant oldest = now.minus(subscribeWait.compareTo(SUBSCRIBE_WAIT) > 0 ? subscribeWait : SUBSCRIBE_WAIT);
        for (var it = recentSignIns.values().iterator(); it.hasNext(); ) {
            if (!it.next().isBefore(oldest)) {
                return;
            }
            it.remove();
        }
    }

    /**
     * The jobs {@code id} missed that are still due to it, in jid order; those no longer due are forgotten.
     *
     * @param targetOf each job's target as compiled so far in this pass, added to here
     */
    private List<Job> due(String id, Map<String, Predicate<String>> targetOf) {
        List<Job> due = new ArrayList<>();
        for (String jid : missedJidsOf(id)) {
            Optional<Job> job = missedJob(jid);
            if (job.isEmpty() || jobs.hasReturn(jid, id) || !stillTargets(job.get(), id, targetOf)) {
                forget(id, jid);
            } else {
                due.add(job.get());
            }
        }
        return due;
    }

    /** The in-flight jobs {@code id} missed, in jid order. */
    private List<String> missedJidsOf(String id) {
        List<String> jids = new ArrayList<>();
        missedBy.forEach((jid, batches) -> {
            for (Batch b : batches) {
                if (b.ids().contains(id)) {
                    jids.add(jid);
                    return;
                }
            }
        });
        return jids;
    }

    private boolean stillTargets(Job job, String id, Map<String, Predicate<String>> targetOf) {
        Predicate<String> expected = targetOf.computeIfAbsent(job.jid(), jid -> {
            try {
                return targets.expecting(job.tgtType(), job.tgt());
            } catch (InvalidTargetException e) {
                return anyone -> false; // a nodegroup removed since: the job cannot be matched again
            }
        });
        try {
            return expected.test(id);
        } catch (InvalidTargetException e) {
            return false;
        }
    }

    private void forget(String id, String jid) {
        List<Batch> batches = missedBy.get(jid);
        if (batches == null) {
            return;
        }
        batches.removeIf(b -> b.ids().remove(id) && b.ids().isEmpty());
        if (batches.isEmpty()) {
            missedBy.remove(jid);
            missedJobs.remove(jid);
        }
    }

    private Optional<Job> missedJob(String jid) {
        Job known = missedJobs.get(jid);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<Job> read = jobs.job(jid);
        read.ifPresent(job -> missedJobs.put(jid, job));
        return read;
    }

    /** Forgets the jobs no longer in flight: it looks at each missed job's batches, never at each minion. */
    private void forgetOldJobs(Instant now) {
        Instant oldest = now.minus(inFlightFor.get());
        for (var it = missedBy.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, List<Batch>> job = it.next();
            job.getValue().removeIf(b -> b.at().isBefore(oldest));
            if (job.getValue().isEmpty()) {
                it.remove();
                missedJobs.remove(job.getKey());
            }
        }
    }

    private void run(Runnable task) {
        try {
            worker.execute(() -> guarded(task));
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private static void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            // a job cache that cannot be read now costs this catch-up, not the thread
            log.warn("late sign-in catch-up failed: {}", e.toString());
        }
    }

    /** For tests: returns once everything queued before this call has been handled. */
    void awaitQueued() throws Exception {
        worker.submit(() -> { }).get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        worker.shutdownNow();
        try {
            if (!worker.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("the late-sign-ins thread did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
