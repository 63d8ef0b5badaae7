package io.jsalt.minion.masters;

import io.jsalt.config.MasterAddress;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInPacing;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.jobs.ExecutorShutdown;
import io.jsalt.minion.jobs.PublicationSource;
import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.message.Topics;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minion's line to one master: signs in (retrying while its key is pending, backing off while the master
 * does not answer), subscribes to its publisher, and notices that it went away and came back (the publish
 * connection drops and returns) or changed its session key (a publication does not decrypt), then signs in
 * again after a random delay up to random_reauth_delay, so a fleet comes back spread out. Publications that
 * did not decrypt are kept and offered again after the next sign-in. Sign-in and its retries run on this
 * link's own scheduler thread, one attempt at a time; a minion of several masters has one link per master.
 * Started once and closed once: a minion that moves to another master makes a new link.
 */
public final class MasterLink implements PublicationSource, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MasterLink.class);
    private static final int MAX_UNDECRYPTED = 100;
    /** How young a session must be for a refusal of it to count as a persistent mismatch, not a key rotation. */
    private static final Duration FRESH_SESSION = Duration.ofSeconds(5);

    /** What the link tells the minion; called on the link's threads, so implementations only act or queue. */
    public interface Listener {
        /** Signed in (again): on the link's scheduler thread, before the next sign-in attempt can start. */
        void signedIn(MasterLink link);

        /** A publication frame from this master, on its subscription thread. */
        void publication(MasterLink link, byte[] frame);

        /** An attempt ended without a session: no answer, refused, pending, rejected. */
        default void notSignedIn(MasterLink link, SignInResult result) {
        }
    }

    public enum State { STARTING, PENDING, SIGNED_IN, REJECTED, MASTER_REFUSED, STOPPED }

    private final MinionConfig config;
    private final MasterAddress address;
    private final Transport transport;
    private final KeyPair keyPair;
    private final MasterKeyPin pin;
    private final Listener listener;
    private final SignInPacing pacing;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Object authLock = new Object();
    private final AtomicBoolean signInQueued = new AtomicBoolean();
    private final AtomicBoolean publisherLost = new AtomicBoolean();
    private final AtomicBoolean announced = new AtomicBoolean();
    private final AtomicLong signIns = new AtomicLong();
    private final ArrayDeque<byte[]> undecrypted = new ArrayDeque<>();
    private final RequestClient client;
    private final SignIn signIn;
    private final MasterChannel channel;
    private volatile State state = State.STARTING;
    private volatile Session session;
    private volatile Instant signedInAt;
    private volatile Instant signInAskedAt;
    private volatile Instant publisherLostAt = Instant.MIN;
    private volatile boolean retrySignIn = true;
    private Subscription subscription;
    private int subscribedPort = -1;

    /**
     * @param pin the master key this minion trusts, shared by every link: the masters of one minion share their key
     *     (Salt's multi-master requires it), and the first sign-in pins it for all
     */
    public MasterLink(MinionConfig config, MasterAddress address, Transport transport, KeyPair keyPair, MasterKeyPin pin,
            Listener listener) {
        this.config = config;
        this.address = address;
        this.transport = transport;
        this.keyPair = keyPair;
        this.pin = pin;
        this.listener = listener;
        this.pacing = new SignInPacing(SignInPacing.Settings.of(config), new java.util.Random());
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-minion-" + config.id() + (config.masters().list().size() > 1 ? "@" + address : ""));
            t.setDaemon(true);
            return t;
        });
        // close() lets a running sign-in finish instead of interrupting a thread inside a ZeroMQ call
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        Duration timeout = Duration.ofSeconds(config.authTimeout());
        this.client = transport.connectRequestClient(address.host(), address.port(), config.frameLimits().maxReplySize());
        this.signIn = new SignIn(config.id(), keyPair, pin, client, timeout);
        this.channel = new MasterChannel(client, () -> session, this::reauthenticate, timeout,
                Duration.ofMillis(Math.round(config.requestIdleClose() * 1000)));
    }

    /**
     * Starts signing in, at once. With {@code keepTrying} false a sign-in the master does not answer (or that this
     * minion refuses) is not retried: the listener hears of it and decides (failover moves to the next master).
     */
    public void start(boolean keepTrying) {
        this.retrySignIn = keepTrying;
        queueSignIn(0);
    }

    public MasterAddress address() {
        return address;
    }

    public State state() {
        return state;
    }

    /** The session with this master now; null while not signed in. */
    @Override
    public Session session() {
        return session;
    }

    /** With several masters, this one's address: they may share a session key, never their serial counts. */
    @Override
    public String replayScope() {
        return config.masters().list().size() > 1 ? address.toString() : null;
    }

    /** Encrypted requests to this master under its session. */
    public MasterChannel channel() {
        return channel;
    }

    /** True while signed in and the publish connection is up (as far as ZeroMQ has noticed). */
    public boolean connected() {
        return state == State.SIGNED_IN && !publisherLost.get();
    }

    /** True while the publish connection is down (it dropped, and has not come back). */
    public boolean publisherLost() {
        return publisherLost.get();
    }

    public long signIns() {
        return signIns.get();
    }

    public Instant signedInAt() {
        return signedInAt;
    }

    public Instant signInAskedAt() {
        return signInAskedAt;
    }

    /** True the first time only: the minion's start event goes to each link's master once. */
    public boolean firstAnnouncement() {
        return announced.compareAndSet(false, true);
    }

    /** Waits up to {@code timeout} for the publish connection to be up; true when it is. */
    public boolean awaitPublisher(Duration timeout) {
        Subscription s = subscription;
        return s != null && s.awaitConnected(timeout);
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
            log.warn("{}: sign-in attempt to {} failed: {}", config.id(), address, e.toString());
            notSignedIn(new SignInResult.Failed(e.toString()), pacing.afterFailureMs());
            return;
        }
        if (result instanceof SignInResult.Accepted) {
            afterSignIn();
        } else if (result instanceof SignInResult.Failed) {
            notSignedIn(result, pacing.afterFailureMs());
        } else if (result instanceof SignInResult.Rejected && !config.rejectedRetry()) {
            listener.notSignedIn(this, result);
        } else {
            notSignedIn(result, pacing.whilePendingMs());
        }
    }

    private void notSignedIn(SignInResult result, long retryMs) {
        boolean answered = result instanceof SignInResult.Pending || result instanceof SignInResult.Rejected;
        if (retrySignIn || answered) {
            queueSignIn(retryMs); // a pending key waits on this master, as Salt does, failover or not
        }
        listener.notSignedIn(this, result);
    }

    private void afterSignIn() {
        try {
            listener.signedIn(this);
        } catch (RuntimeException | Error e) {
            log.warn("{}: after signing in to {}: {}", config.id(), address, e.toString());
        }
        replayUndecrypted();
    }

    /**
     * One sign-in exchange; called with authLock held. Until the master key is pinned, sign-ins to different
     * masters take turns, so that the first one pins the key and the others are checked against it.
     */
    private SignInResult askToSignIn() {
        signInAskedAt = Instant.now();
        if (pin.pinned().isPresent()) {
            return signIn.attempt();
        }
        synchronized (pin) {
            return signIn.attempt();
        }
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
            log.info("{} signed in to master {}", config.id(), address);
            return;
        }
        if (result instanceof SignInResult.Failed f) {
            // the session is kept: publications under a new key are held for replay until sign-in works
            log.debug("{}: sign-in to {} failed: {}", config.id(), address, Printable.of(f.reason(), Printable.LONG));
            return;
        }
        pacing.answered();
        session = null;
        if (result instanceof SignInResult.Pending) {
            if (state != State.PENDING) {
                log.info("{}: key is pending acceptance on the master ({}); retrying every {} s", config.id(), address,
                        config.acceptanceWaitTime());
            }
            state = State.PENDING;
        } else if (result instanceof SignInResult.Rejected) {
            state = State.REJECTED;
            synchronized (undecrypted) {
                undecrypted.clear(); // not signed in: those jobs are not for this minion any more
            }
            log.error("{}: the master rejected this minion's key ({}). Delete it on the master (jsalt-key -d {}) and "
                    + "restart this minion{}", config.id(), address, config.id(),
                    config.rejectedRetry() ? "; retrying (rejected_retry)" : ".");
        } else if (result instanceof SignInResult.Full) {
            log.error("{}: the master is full (max_minions reached) ({})", config.id(), address);
        } else if (result instanceof SignInResult.MasterRefused m) {
            state = State.MASTER_REFUSED;
            log.error("{}: refusing to sign in: {} (master {})", config.id(), Printable.of(m.reason(), Printable.LONG), address);
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
        subscription = transport.subscribe(address.host(), publishPort, topics, frame -> listener.publication(this, frame),
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
                    log.info("{}: the master's publish port is back ({}); already signed in again", config.id(), address);
                    return;
                }
                log.info("{}: the master's publish port is back ({})", config.id(), address);
                scheduleReauth("the master may have a new session key");
            }
        }

        @Override
        public void onDisconnected() {
            if (publisherLost.compareAndSet(false, true) && state != State.STOPPED) {
                publisherLostAt = Instant.now();
                log.warn("{}: lost the connection to the master's publish port {}:{}; waiting for it to come back",
                        config.id(), address.host(), subscribedPort);
            }
        }
    }

    /** Signs in again after a random delay up to random_reauth_delay, unless an attempt is already queued. */
    private void scheduleReauth(String reason) {
        long delayMs = pacing.reauthDelayMs();
        if (queueSignIn(delayMs)) {
            log.info("{}: {}; signing in again to {} in {} ms", config.id(), reason, address, delayMs);
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
                    log.warn("{}: master {} refused a session it granted {} ms ago; signing in again in {} ms",
                            config.id(), address, Duration.between(last, Instant.now()).toMillis(), delayMs);
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
    @Override
    public void sessionKeyMismatch(Session failed, byte[] frame) {
        if (session != failed) {
            runOnScheduler(() -> listener.publication(this, frame)); // signed in again meanwhile: try the new key
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
        frames.forEach(frame -> listener.publication(this, frame));
    }

    private void runOnScheduler(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /** The minion key, for loads this link signs (start events). */
    KeyPair keyPair() {
        return keyPair;
    }

    @Override
    public void close() {
        state = State.STOPPED;
        session = null;
        ExecutorShutdown.gracefully(scheduler, Duration.ofSeconds(config.authTimeout() + 2L), config.id() + " sign-in to " + address);
        if (subscription != null) {
            subscription.close();
        }
        client.close();
    }

    @Override
    public String toString() {
        return address.toString();
    }
}
