package io.jsalt.master.publish;

import io.jsalt.master.events.EventListener;
import io.jsalt.master.jobs.Jids;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a minion that signs in late the jobs it missed. A job is published once; a minion whose key was accepted
 * but that was not listening then (still waiting to ask again after its key was accepted, restarting, reconnecting)
 * misses it, and the client waiting for it reports it silent after its whole timeout (Salt does the same). Here,
 * when a minion signs in ({@code salt/auth} with act {@code accept}), every job still in flight for it is published
 * again to that minion alone, with the same jid: published within the last {@code timeout + gather_job_timeout}
 * (the least a client waits for a silent minion), expecting that minion when it went out, no return from it yet,
 * and a target that still matches it ({@link TargetResolver#expects}). The publication waits until the minion's
 * subscription has reached the publish port (a frame sent before it would be lost again), at most
 * {@link #SUBSCRIBE_WAIT} (a salt-minion without zmq_filtering subscribes to everything and is never seen). Each
 * (jid, minion) is sent again at most once to a minion seen listening, and a minion runs a jid at most once whatever
 * it is sent (its jid queue, as Salt's).
 *
 * <p>Threads: {@link #onEvent} runs on the thread that fires the event (an MWorker) and only queues; everything
 * else runs on the one thread of this class, {@code late-sign-ins}.
 */
public final class LateSignIns implements EventListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LateSignIns.class);
    /** How long a signed-in minion's subscription is waited for before its jobs go out anyway. */
    public static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final String LAST_JID = "99999999999999999999";

    private final JobCache jobs;
    private final TargetResolver targets;
    private final JobPublisher publisher;
    private final Supplier<Set<String>> subscribedTopics;
    private final Supplier<Duration> inFlightFor;
    private final Clock clock;
    private final Duration subscribeWait;
    private final ScheduledExecutorService worker;
    /** Minions signed in with jobs due, each with the time to stop waiting for its subscription. Worker thread only. */
    private final Map<String, Instant> waiting = new LinkedHashMap<>();
    /** "jid id" of every job sent again, with when: pruned once the job is out of the window. Worker thread only. */
    private final Map<String, Instant> sent = new HashMap<>();
    private boolean ticking;

    /**
     * @param subscribedTopics the publish port's subscribed topics now
     * @param inFlightFor      how long after its publication a job counts as in flight
     * @param subscribeWait    how long to wait for a signed-in minion's subscription ({@link #SUBSCRIBE_WAIT})
     */
    public LateSignIns(JobCache jobs, TargetResolver targets, JobPublisher publisher, Supplier<Set<String>> subscribedTopics,
                       Supplier<Duration> inFlightFor, Duration subscribeWait, Clock clock) {
        this.subscribeWait = subscribeWait;
        this.jobs = jobs;
        this.targets = targets;
        this.publisher = publisher;
        this.subscribedTopics = subscribedTopics;
        this.inFlightFor = inFlightFor;
        this.clock = clock;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "late-sign-ins");
            t.setDaemon(true);
            return t;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.worker = executor;
    }

    @Override
    public void onEvent(EventFrame event) {
        if (!"salt/auth".equals(event.tag()) || !"accept".equals(event.data().get("act"))
                || !Boolean.TRUE.equals(event.data().get("result")) || !(event.data().get("id") instanceof String id)) {
            return;
        }
        run(() -> signedIn(id));
    }

    private void signedIn(String id) {
        Instant now = clock.instant();
        sent.values().removeIf(at -> at.isBefore(now.minus(inFlightFor.get())));
        if (due(id, now).isEmpty()) {
            return; // the usual case: nothing in flight for it
        }
        waiting.putIfAbsent(id, now.plus(subscribeWait));
        if (!ticking) {
            ticking = true;
            run(this::tick);
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
        waiting.forEach((id, giveUpAt) -> {
            if (Topics.isSubscribedBy(topics, id) || !now.isBefore(giveUpAt)) {
                ready.add(id);
            }
        });
        for (String id : ready) {
            waiting.remove(id);
            boolean listening = Topics.isSubscribedBy(topics, id);
            if (!listening) {
                log.debug("{} signed in but its subscription was not seen within {} ms; sending its jobs anyway", id,
                        subscribeWait.toMillis());
            }
            for (Job job : due(id, now)) {
                if (listening) {
                    // not remembered otherwise: a jsalt-call signing in with the minion's key does not listen, and
                    // the minion itself, signing in later, must still get the job
                    sent.put(job.jid() + " " + id, now);
                }
                publisher.publishTo(new PublishLoad(job.fun(), job.arg(), job.tgt(), job.jid(), "", job.tgtType(), job.user()), id);
                log.info("job {} ({}) published again to {}: it signed in while the job was in flight", job.jid(), job.fun(), id);
            }
        }
    }

    /** The jobs in flight that expected {@code id}, in jid order, that it has not answered nor been sent again. */
    private List<Job> due(String id, Instant now) {
        List<Job> due = new ArrayList<>();
        for (Job job : jobs.jobsBetween(Jids.at(now.minus(inFlightFor.get())), LAST_JID)) {
            if (!job.minions().contains(id) || sent.containsKey(job.jid() + " " + id)
                    || jobs.returns(job.jid()).stream().anyMatch(r -> r.id().equals(id))) {
                continue;
            }
            try {
                if (targets.expects(job.tgtType(), job.tgt(), id)) {
                    due.add(job);
                }
            } catch (InvalidTargetException e) {
                // a nodegroup removed since: the job cannot be matched again
            }
        }
        return due;
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
