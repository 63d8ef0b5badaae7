package io.jsalt.minion;

import io.jsalt.transport.codec.Printable;
import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInPacing;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.files.RemoteMasterFiles;
import io.jsalt.minion.grains.GrainsReport;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.jobs.JobRunner;
import io.jsalt.minion.jobs.ExecutorShutdown;
import io.jsalt.minion.jobs.ProcRecords;
import io.jsalt.minion.jobs.RunningJobs;
import io.jsalt.minion.modules.MinionModules;
import io.jsalt.minion.pillar.MinionPillar;
import io.jsalt.minion.pillar.PillarModule;
import io.jsalt.minion.returns.ReturnOutbox;
import io.jsalt.minion.returns.ReturnSeal;
import io.jsalt.minion.returns.Returner;
import io.jsalt.minion.saltutil.SaltutilModule;
import io.jsalt.minion.schedule.ScheduleParser;
import io.jsalt.minion.schedule.ScheduleRunner;
import io.jsalt.minion.schedule.ScheduledJob;
import io.jsalt.minion.supervisor.Supervisor;
import io.jsalt.minion.supervisor.SupervisorEvents;
import io.jsalt.minion.supervisor.SupervisorModule;
import io.jsalt.minion.supervisor.SupervisordModule;
import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.RequestStamp;
import io.jsalt.transport.message.Topics;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One minion instance: signs in (retrying while its key is pending, backing off while the master does
 * not answer), subscribes to the publisher, runs the jobs that target it and its own schedule, and keeps
 * the returns the master could not take until it can. It notices a master that went away and came back
 * (the publish connection drops and returns) or changed its session key (a publication does not decrypt),
 * and signs in again after a random delay up to random_reauth_delay, so a fleet comes back spread out.
 * Many instances can share one {@link Transport} in a JVM: nothing here is static. Sign-in and its retries
 * run on the instance's own scheduler thread, one attempt at a time.
 */
public final class Minion implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Minion.class);

    private static final int MAX_UNDECRYPTED = 100;
    /** How young a session must be for a refusal of it to count as a persistent mismatch, not a key rotation. */
    private static final Duration FRESH_SESSION = Duration.ofSeconds(5);

    public enum State { STARTING, PENDING, SIGNED_IN, REJECTED, MASTER_REFUSED, STOPPED }

    private final MinionConfig config;
    private final Transport transport;
    private final SignInPacing pacing;
    private final CompletableFuture<String> terminated = new CompletableFuture<>();
    private final Object authLock = new Object();
    /** A sign-in attempt is queued on the scheduler: at most one at a time. */
    private final AtomicBoolean signInQueued = new AtomicBoolean();
    /** The publish connection dropped and has not come back yet. */
    private final AtomicBoolean publisherLost = new AtomicBoolean();
    private final AtomicLong signIns = new AtomicLong();
    /** Publications that arrived under a key this minion does not have yet; replayed after sign-in. */
    private final ArrayDeque<byte[]> undecrypted = new ArrayDeque<>();
    private final ScheduledExecutorService scheduler;
    private volatile State state = State.STARTING;
    private volatile Session session;
    private volatile Instant signedInAt;
    private volatile Instant signInAskedAt;
    private volatile Instant publisherLostAt = Instant.MIN;
    private KeyPair keyPair;
    private RequestClient client;
    private SignIn signIn;
    private MasterChannel channel;
    private Returner returner;
    private JobRunner jobs;
    private MinionGrains grains;
    private GrainsReport grainsReport;
    /** The pillar the master last sent; filled at each sign-in and pillar refresh. */
    private final MinionPillar pillar = new MinionPillar();
    private RunningJobs running;
    private MinionModules modules;
    private ScheduleRunner schedule;
    private boolean scheduleStarted;
    private Subscription subscription;
    private int subscribedPort = -1;
    private boolean announced;
    private Supervisor supervisor;
    private SupervisorEvents supervisorEvents;

    public Minion(MinionConfig config, Transport transport) {
        this.config = config;
        this.transport = transport;
        this.pacing = new SignInPacing(SignInPacing.Settings.of(config), new java.util.Random());
        ScheduledThreadPoolExecutor single = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-minion-" + config.id());
            t.setDaemon(true);
            return t;
        });
        // close() lets a running sign-in finish instead of interrupting a thread inside a ZeroMQ call
        single.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.scheduler = single;
    }

    /**
     * Loads or creates the key, checks the schedule and starts signing in.
     *
     * @throws io.jsalt.config.ConfigException when the schedule is not usable as written
     */
    public void start() {
        keyPair = RsaKeys.loadOrCreate(config.pkiDir(), "minion");
        grains = MinionGrains.of(config.id(), config.grainsFile(), config.grains());
        running = new RunningJobs(new ProcRecords(config.cachedir().resolve("proc")), config.id());
        // the channel exists from the sign-in on; modules reach the master only from jobs, after it
        RemoteMasterFiles files = new RemoteMasterFiles(load -> channel.send(load), config.cachedir().resolve("files"));
        SaltutilModule saltutil = new SaltutilModule(running, grains::refresh, () -> grainsReport.send(), MinionModules.jarDir(config));
        // as Salt's grains.setvals does: every grains write ends with saltutil.refresh_grains(refresh_pillar=...)
        supervisorEvents = new SupervisorEvents(config.id(),
                () -> Rsa.x931PrivateEncrypt(keyPair.getPrivate(), "salt".getBytes(StandardCharsets.US_ASCII)),
                load -> channel.send(load));
        supervisor = Supervisor.forMinion(config, supervisorEvents);
        PillarModule pillarModule = new PillarModule(pillar, (override, saltenv, pillarenv) -> grainsReport.fetch(override, saltenv, pillarenv));
        modules = new MinionModules(config, grains, files, List.of(saltutil, pillarModule, new SupervisorModule(supervisor),
                new SupervisordModule(supervisor)), tellMaster -> saltutil.refresh_grains(
                java.util.Map.of("refresh_pillar", tellMaster)), pillar);
        List<ScheduledJob> scheduled = new ScheduleParser(config.configDir().resolve(MinionConfig.FILE_NAME), modules.current()::has)
                .parse(config.schedule());
        client = transport.connectRequestClient(config.master(), config.masterPort(), config.frameLimits().maxReplySize());
        Duration timeout = Duration.ofSeconds(config.authTimeout());
        signIn = new SignIn(config.id(), keyPair, new MasterKeyPin(config.pkiDir(), config.masterFinger()), client, timeout);
        channel = new MasterChannel(client, () -> session, this::reauthenticate, timeout);
        grainsReport = new GrainsReport(config.id(), grains, channel, keyPair.getPrivate(), pillar::set);
        returner = new Returner(config.id(), channel, new ReturnOutbox(config.cachedir().resolve("returns")),
                config.returnRetryTimer(), config.returnRetryTimerMax(),
                ReturnSeal.of(config.minionSignMessages() ? keyPair.getPrivate() : null));
        jobs = new JobRunner(new JobRunner.Settings(config.id(), config.processCountMax(), config.returnRetryTimer(),
                config.returnRetryTimerMax(), config.minionSignMessages(), grains, config.cachedir().resolve("seen_publications"), pillar), modules, running, returner, keyPair.getPrivate(), () -> session,
                this::onSessionKeyMismatch);
        if (!scheduled.isEmpty()) {
            schedule = new ScheduleRunner(config.id(), scheduled, modules, returner, null); // the returner seals
        }
        supervisor.start(); // a definition it cannot use stops the start here, before any program runs
        queueSignIn(0);
    }

    public State state() {
        return state;
    }

    public String id() {
        return config.id();
    }

    /** How many times this minion has signed in since it started (re-authentications included). */
    public long signIns() {
        return signIns.get();
    }

    /** When this minion last signed in; null before the first time. */
    public Instant signedInAt() {
        return signedInAt;
    }

    /**
     * When this minion last sent a sign-in request (answered or not): the load it offers the master, which
     * random_reauth_delay spreads after a master restart. Null before the first attempt.
     */
    public Instant signInAskedAt() {
        return signInAskedAt;
    }

    /** Completes, with the reason, when this minion gives up for good (its key was rejected). */
    public CompletableFuture<String> terminated() {
        return terminated;
    }

    /** Queues one sign-in attempt unless one is already queued; true when this call queued it. */
    private boolean queueSignIn(long delayMs) {
        if (state == State.STOPPED || !signInQueued.compareAndSet(false, true)) {
            return false;
        }
        try {
            scheduler.schedule(this::signInLoop, delayMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false; // closing
        }
    }

    private void signInLoop() {
        signInQueued.set(false);
        if (state == State.STOPPED) {
            return;
        }
        SignInResult result;
        try {
            synchronized (authLock) {
                result = askToSignIn();
                apply(result);
            }
        } catch (RuntimeException | Error e) {
            // whatever one exchange throws (a reply too big for memory, a bug) costs that attempt, never the loop
            log.warn("{}: sign-in attempt failed: {}", config.id(), e.toString());
            queueSignIn(pacing.afterFailureMs());
            return;
        }
        if (result instanceof SignInResult.Accepted) {
            try {
                afterSignIn();
            } catch (RuntimeException | Error e) {
                log.warn("{}: after signing in: {}", config.id(), e.toString());
            }
        } else if (result instanceof SignInResult.Failed) {
            queueSignIn(pacing.afterFailureMs());
        } else if (result instanceof SignInResult.Rejected && !config.rejectedRetry()) {
            terminated.complete("rejected");
        } else {
            queueSignIn(pacing.whilePendingMs());
        }
    }

    /** One sign-in exchange; called with authLock held. */
    private SignInResult askToSignIn() {
        signInAskedAt = Instant.now();
        return signIn.attempt();
    }

    /** Records the outcome of an attempt; called with authLock held. */
    private void apply(SignInResult result) {
        if (result instanceof SignInResult.Accepted a) {
            session = a.session();
            state = State.SIGNED_IN;
            pacing.signedIn();
            signedInAt = Instant.now();
            signIns.incrementAndGet();
            subscribe(a.session().publishPort());
            log.info("{} signed in to master {}:{}", config.id(), config.master(), config.masterPort());
            return;
        }
        if (result instanceof SignInResult.Failed f) {
            // the session is kept: publications under a new key are held for replay until sign-in works
            log.debug("{}: sign-in failed: {}", config.id(), Printable.of(f.reason(), Printable.LONG));
            return;
        }
        pacing.answered();
        session = null;
        if (result instanceof SignInResult.Pending) {
            if (state != State.PENDING) {
                log.info("{}: key is pending acceptance on the master; retrying every {} s", config.id(), config.acceptanceWaitTime());
            }
            state = State.PENDING;
        } else if (result instanceof SignInResult.Rejected) {
            state = State.REJECTED;
            synchronized (undecrypted) {
                undecrypted.clear(); // not signed in: those jobs are not for this minion any more
            }
            log.error("{}: the master rejected this minion's key. Delete it on the master (jsalt-key -d {}) and "
                    + "restart this minion{}", config.id(), config.id(), config.rejectedRetry() ? "; retrying (rejected_retry)" : ".");
        } else if (result instanceof SignInResult.Full) {
            log.error("{}: the master is full (max_minions reached)", config.id());
        } else if (result instanceof SignInResult.MasterRefused m) {
            state = State.MASTER_REFUSED;
            log.error("{}: refusing to sign in: {}", config.id(), Printable.of(m.reason(), Printable.LONG));
        }
    }

    /** On the scheduler thread after every successful sign-in. */
    private void afterSignIn() {
        // as a salt-minion does: the master learns the grains (for grain targeting) before anything else
        grainsReport.send();
        announceOnce();
        if (supervisor.supervises()) {
            // changes made while the master was away were dropped: the master learns where every program is now
            supervisor.status("all").forEach(supervisorEvents);
        }
        replayUndecrypted();
        returner.flushSoon();
        if (schedule != null && !scheduleStarted && state != State.STOPPED) {
            scheduleStarted = true; // the schedule starts with the first sign-in: its returns need a master
            schedule.start();
        }
    }

    private void subscribe(int publishPort) {
        if (subscription != null && subscribedPort == publishPort) {
            return;
        }
        if (subscription != null) {
            subscription.close();
        }
        // a topic of its own always, so the master's presence sees it: under zmq_filtering the sha1(id) topic
        // publications come on, without it a short presence topic no publication carries
        List<byte[]> topics = config.zmqFiltering()
                ? List.of(Topics.BROADCAST, Topics.ofMinion(config.id()))
                : List.of(new byte[0], Topics.presenceOf(config.id()));
        subscription = transport.subscribe(config.master(), publishPort, topics, jobs::onPublication,
                config.frameLimits().maxPublicationSize());
        subscription.connectionListener(new PublisherWatch());
        subscribedPort = publishPort;
    }

    /**
     * A dropped publish connection that comes back means the master restarted (or the network healed):
     * its session key may be new, and the first publication would not decrypt, so sign in again without
     * waiting for one. Runs on the subscription thread: it only queues work.
     */
    private final class PublisherWatch implements ConnectionListener {
        @Override
        public void onConnected() {
            if (publisherLost.compareAndSet(true, false)) {
                Instant lastSignIn = signedInAt;
                if (lastSignIn != null && lastSignIn.isAfter(publisherLostAt)) {
                    // a request met the new master first ("bad load") and signed in again already
                    log.info("{}: the master's publish port is back; already signed in again", config.id());
                    return;
                }
                log.info("{}: the master's publish port is back", config.id());
                scheduleReauth("the master may have a new session key");
            }
        }

        @Override
        public void onDisconnected() {
            if (publisherLost.compareAndSet(false, true) && state != State.STOPPED) {
                publisherLostAt = Instant.now();
                log.warn("{}: lost the connection to the master's publish port {}:{}; waiting for it to come back",
                        config.id(), config.master(), subscribedPort);
            }
        }
    }

    /** Signs in again after a random delay up to random_reauth_delay, unless an attempt is already queued. */
    private void scheduleReauth(String reason) {
        long delayMs = pacing.reauthDelayMs();
        if (queueSignIn(delayMs)) {
            log.info("{}: {}; signing in again in {} ms", config.id(), reason, delayMs);
        }
    }

    /**
     * Signs in again now if {@code failed} is still the current session; returns the session to use (null: none
     * now). A session refused within FRESH_SESSION of its grant is a persistent mismatch, not a key rotation:
     * signing in at once would loop (each sign-in re-sends the grains), so the sign-in waits for the pacing.
     */
    private Session reauthenticate(Session failed) {
        synchronized (authLock) {
            if (session != failed) {
                return session;
            }
            Instant last = signedInAt;
            if (last != null && Duration.between(last, Instant.now()).compareTo(FRESH_SESSION) < 0) {
                long delayMs = pacing.afterRefusedSessionMs();
                if (queueSignIn(delayMs)) {
                    log.warn("{}: the master refused a session it granted {} ms ago; signing in again in {} ms",
                            config.id(), Duration.between(last, Instant.now()).toMillis(), delayMs);
                }
                return null;
            }
            pacing.sessionOutlived();
            SignInResult result = askToSignIn();
            apply(result);
            if (result instanceof SignInResult.Accepted) {
                runOnScheduler(this::afterSignIn);
                return session;
            }
            queueSignIn(result instanceof SignInResult.Failed ? pacing.afterFailureMs() : 0);
            return result instanceof SignInResult.Failed ? null : session;
        }
    }

    /**
     * A publication did not decrypt: the master has a new session key. Keep the frame and sign in again
     * after a random delay up to random_reauth_delay, so hundreds of minions do not all ask at once (Salt
     * forgot this); the frame is replayed after sign-in, so the job is not lost.
     */
    private void onSessionKeyMismatch(Session failed, byte[] frame) {
        if (session != failed) {
            runOnScheduler(() -> jobs.onPublication(frame)); // signed in again meanwhile: try the new key
            return;
        }
        synchronized (undecrypted) {
            if (undecrypted.size() >= MAX_UNDECRYPTED) {
                undecrypted.pollFirst();
            }
            undecrypted.addLast(frame);
        }
        scheduleReauth("session key changed");
    }

    private void replayUndecrypted() {
        List<byte[]> frames;
        synchronized (undecrypted) {
            frames = new ArrayList<>(undecrypted);
            undecrypted.clear();
        }
        frames.forEach(jobs::onPublication);
    }

    private void runOnScheduler(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private void announceOnce() {
        if (announced) {
            return;
        }
        announced = true;
        if (subscription != null && !subscription.awaitConnected(Duration.ofSeconds(5))) {
            log.warn("{}: the publish port {}:{} has not answered yet", config.id(), config.master(), subscribedPort);
        }
        String when = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT));
        String text = "Minion " + config.id() + " started at " + when;
        byte[] tok = Rsa.x931PrivateEncrypt(keyPair.getPrivate(), "salt".getBytes(StandardCharsets.US_ASCII));
        for (String tag : List.of("minion_start", "salt/minion/" + config.id() + "/start")) {
            try {
                // stamped, so a jsalt master takes this request once (RequestStamp); a Salt master ignores the key
                channel.send(RequestStamp.stamp(new MinionEvent(config.id(), tok, tag, text).toLoad(), System.currentTimeMillis()));
            } catch (TransportException | NotSignedInException e) {
                log.warn("{}: start event not delivered: {}", config.id(), Printable.reason(e));
            }
        }
    }

    @Override
    public void close() {
        state = State.STOPPED;
        if (schedule != null) {
            schedule.close();
        }
        ExecutorShutdown.gracefully(scheduler, Duration.ofSeconds(config.authTimeout() + 2L), config.id() + " sign-in");
        if (subscription != null) {
            subscription.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (running != null) {
            running.close();
        }
        if (supervisor != null) {
            supervisor.close(); // leaves the programs running for the next minion, or stops them (supervisor_on_stop)
        }
        if (supervisorEvents != null) {
            supervisorEvents.close();
        }
        if (modules != null) {
            modules.close();
        }
        if (returner != null) {
            returner.close();
        }
        if (client != null) {
            client.close();
        }
        terminated.complete("stopped");
    }
}
