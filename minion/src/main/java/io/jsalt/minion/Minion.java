package io.jsalt.minion;

import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.jobs.JobRunner;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.builtin.CoreGrains;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.message.MinionEvent;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One minion instance: signs in (retrying while its key is pending), subscribes to the publisher, and runs
 * the jobs that target it. Many instances can share one {@link Transport} in a JVM: nothing here is
 * static. Sign-in and its retries run on the instance's own scheduler thread.
 */
public final class Minion implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Minion.class);

    private static final int MAX_UNDECRYPTED = 100;

    public enum State { STARTING, PENDING, SIGNED_IN, REJECTED, MASTER_REFUSED, STOPPED }

    private final MinionConfig config;
    private final Transport transport;
    private final CompletableFuture<String> terminated = new CompletableFuture<>();
    private final Object authLock = new Object();
    private final AtomicBoolean reauthScheduled = new AtomicBoolean();
    /** Publications that arrived under a key this minion does not have yet; replayed after sign-in. */
    private final ArrayDeque<byte[]> undecrypted = new ArrayDeque<>();
    private final ScheduledExecutorService scheduler;
    private volatile State state = State.STARTING;
    private volatile Session session;
    private KeyPair keyPair;
    private RequestClient client;
    private SignIn signIn;
    private MasterChannel channel;
    private JobRunner jobs;
    private Subscription subscription;
    private int subscribedPort = -1;
    private boolean announced;
    private double pendingWait;
    private int failuresInARow;

    public Minion(MinionConfig config, Transport transport) {
        this.config = config;
        this.transport = transport;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jsalt-minion-" + config.id());
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        keyPair = RsaKeys.loadOrCreate(config.pkiDir(), "minion");
        Map<String, Object> grains = new LinkedHashMap<>(CoreGrains.collect(config.id()));
        grains.putAll(config.grains());
        ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder()
                .minionId(config.id()).grains(grains).cachedir(config.cachedir()).build());
        client = transport.connectRequestClient(config.master(), config.masterPort());
        Duration timeout = Duration.ofSeconds(config.authTimeout());
        signIn = new SignIn(config.id(), keyPair, new MasterKeyPin(config.pkiDir(), config.masterFinger()), client, timeout);
        channel = new MasterChannel(client, () -> session, this::reauthenticate, timeout);
        jobs = new JobRunner(new JobRunner.Settings(config.id(), config.processCountMax(), config.returnRetryTimer(),
                config.returnRetryTimerMax(), config.minionSignMessages()), registry, channel, keyPair.getPrivate(), () -> session, this::onSessionKeyMismatch);
        pendingWait = config.acceptanceWaitTime();
        scheduler.execute(this::signInLoop);
    }

    public State state() {
        return state;
    }

    public String id() {
        return config.id();
    }

    /** Completes, with the reason, when this minion gives up for good (its key was rejected). */
    public CompletableFuture<String> terminated() {
        return terminated;
    }

    private void signInLoop() {
        if (state == State.STOPPED) {
            return;
        }
        SignInResult result;
        synchronized (authLock) {
            result = signIn.attempt();
            apply(result);
        }
        if (result instanceof SignInResult.Accepted) {
            announceOnce();
        } else if (result instanceof SignInResult.Failed) {
            retryIn(reconnectDelay());
        } else if (result instanceof SignInResult.Rejected && !config.rejectedRetry()) {
            terminated.complete("rejected");
        } else {
            retryIn(nextPendingWait());
        }
    }

    /** Records the outcome of an attempt; called with authLock held. */
    private void apply(SignInResult result) {
        if (result instanceof SignInResult.Accepted a) {
            session = a.session();
            state = State.SIGNED_IN;
            pendingWait = config.acceptanceWaitTime();
            subscribe(a.session().publishPort());
            log.info("{} signed in to master {}:{}", config.id(), config.master(), config.masterPort());
            return;
        }
        failuresInARow = result instanceof SignInResult.Failed ? failuresInARow : 0;
        if (result instanceof SignInResult.Failed f) {
            log.debug("{}: sign-in failed: {}", config.id(), f.reason());
            return;
        }
        session = null;
        if (result instanceof SignInResult.Pending) {
            if (state != State.PENDING) {
                log.info("{}: key is pending acceptance on the master; retrying every {} s", config.id(), pendingWait);
            }
            state = State.PENDING;
        } else if (result instanceof SignInResult.Rejected) {
            state = State.REJECTED;
            log.error("{}: the master rejected this minion's key. Delete it on the master (jsalt-key -d {}) and "
                    + "restart this minion{}", config.id(), config.id(), config.rejectedRetry() ? "; retrying (rejected_retry)" : ".");
        } else if (result instanceof SignInResult.Full) {
            log.error("{}: the master is full (max_minions reached)", config.id());
        } else if (result instanceof SignInResult.MasterRefused m) {
            state = State.MASTER_REFUSED;
            log.error("{}: refusing to sign in: {}", config.id(), m.reason());
        }
    }

    private void subscribe(int publishPort) {
        if (subscription != null && subscribedPort == publishPort) {
            return;
        }
        if (subscription != null) {
            subscription.close();
        }
        List<byte[]> topics = new ArrayList<>();
        if (config.zmqFiltering()) {
            topics.add(io.jsalt.transport.message.Topics.BROADCAST);
            topics.add(io.jsalt.transport.message.Topics.ofMinion(config.id()));
        }
        subscription = transport.subscribe(config.master(), publishPort, topics, jobs::onPublication);
        subscribedPort = publishPort;
    }

    /** Signs in again now if {@code failed} is still the current session; returns the session to use. */
    private Session reauthenticate(Session failed) {
        synchronized (authLock) {
            if (session != failed) {
                return session;
            }
            SignInResult result = signIn.attempt();
            apply(result);
            if (!(result instanceof SignInResult.Accepted)) {
                scheduler.execute(this::signInLoop);
            }
            return session;
        }
    }

    /**
     * A publication did not decrypt: the master has a new session key. Sign in again after a random
     * delay up to random_reauth_delay, so hundreds of minions do not all ask at once (Salt forgot this).
     */
    private void onSessionKeyMismatch(Session failed, byte[] frame) {
        if (session != failed) {
            return;
        }
        synchronized (undecrypted) {
            if (undecrypted.size() >= MAX_UNDECRYPTED) {
                undecrypted.pollFirst();
            }
            undecrypted.addLast(frame);
        }
        if (!reauthScheduled.compareAndSet(false, true)) {
            return;
        }
        long delayMs = ThreadLocalRandom.current().nextLong(config.randomReauthDelay() * 1000L + 1);
        log.info("{}: session key changed; signing in again in {} ms", config.id(), delayMs);
        scheduler.schedule(() -> {
            reauthScheduled.set(false);
            if (reauthenticate(failed) != null) {
                announceOnce();
                replayUndecrypted();
            } else {
                synchronized (undecrypted) {
                    undecrypted.clear(); // not signed in: those jobs are not for this minion any more
                }
            }
        }, delayMs, TimeUnit.MILLISECONDS);
    }

    private void replayUndecrypted() {
        List<byte[]> frames;
        synchronized (undecrypted) {
            frames = new ArrayList<>(undecrypted);
            undecrypted.clear();
        }
        frames.forEach(jobs::onPublication);
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
                channel.send(new MinionEvent(config.id(), tok, tag, text).toLoad());
            } catch (TransportException | io.jsalt.minion.channel.NotSignedInException e) {
                log.warn("{}: start event not delivered: {}", config.id(), e.getMessage());
            }
        }
    }

    private void retryIn(double seconds) {
        if (state != State.STOPPED) {
            scheduler.schedule(this::signInLoop, (long) (seconds * 1000), TimeUnit.MILLISECONDS);
        }
    }

    private double nextPendingWait() {
        double wait = pendingWait;
        pendingWait = Math.min(pendingWait * 2, Math.max(config.acceptanceWaitTimeMax(), config.acceptanceWaitTime()));
        return wait;
    }

    /** recon_default, doubling with each failure in a row up to recon_max, plus jitter (recon_randomize). */
    private double reconnectDelay() {
        double base = config.reconDefault() / 1000.0;
        double max = Math.max(base, config.reconMax() / 1000.0);
        double delay = Math.min(max, base * Math.pow(2, Math.min(failuresInARow++, 20)));
        return config.reconRandomize() ? delay + ThreadLocalRandom.current().nextDouble(base) : delay;
    }

    @Override
    public void close() {
        state = State.STOPPED;
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (subscription != null) {
            subscription.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (client != null) {
            client.close();
        }
        terminated.complete("stopped");
    }
}
