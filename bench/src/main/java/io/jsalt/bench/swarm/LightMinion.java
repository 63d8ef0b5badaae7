package io.jsalt.bench.swarm;

import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.MinionTok;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.masters.StartEvents;
import io.jsalt.minion.returns.ReturnSeal;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.Topics;
import io.jsalt.transport.target.TargetMatcher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A minion for swarms too big for one thread set per minion: the product's sign-in ({@link SignIn}),
 * channel ({@link MasterChannel}), publication and return codecs and module registry, on threads shared
 * by every minion of the JVM. The product's {@link io.jsalt.minion.Minion} keeps three to four threads
 * per instance (sign-in scheduler, job pool, return retries), which 10,000 instances on one machine
 * cannot have (pid_max is 32,768 here). What it leaves out: the schedule, the on-disk return outbox
 * (returns are retried in memory), proc files; what it keeps: every message and every crypto step.
 */
final class LightMinion implements SwarmMinion {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LightMinion.class);
    private static final int RETURN_TRIES = 5;

    /** The threads and the module registry every light minion of a JVM shares. */
    static final class Shared implements AutoCloseable {
        final SwarmSettings settings;
        /** Sign-ins and return retries: they wait on the master, so they must not hold up jobs. */
        final ScheduledExecutorService work;
        final java.util.concurrent.ExecutorService jobs;
        final ModuleRegistry registry;
        final Path pkiDir;

        Shared(SwarmSettings settings) {
            this.settings = settings;
            this.work = Executors.newScheduledThreadPool(8, r -> {
                Thread t = new Thread(r, "light-minion-sign-in");
                t.setDaemon(true);
                return t;
            });
            this.jobs = Executors.newFixedThreadPool(8, r -> {
                Thread t = new Thread(r, "light-minion-job");
                t.setDaemon(true);
                return t;
            });
            // grains are the same for every id on one machine; test.ping and friends do not read the id
            this.registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("bench").grains(Map.of())
                    .cachedir(settings.root().resolve("var/cache/light")).build());
            this.pkiDir = settings.root().resolve("etc/jsalt/pki/light");
            try {
                java.nio.file.Files.createDirectories(pkiDir);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            work.shutdownNow();
            jobs.shutdownNow();
        }
    }

    private final Shared shared;
    private final String id;
    private final KeyPair keyPair;
    private final Path tokFile;
    private final RequestClient client;
    private final SignIn signIn;
    private final MasterChannel channel;
    private final ReturnSeal seal;
    private final Transport transport;
    private final AtomicBoolean signInQueued = new AtomicBoolean();
    private final AtomicBoolean publisherLost = new AtomicBoolean();
    private volatile Session session;
    private volatile Instant signedInAt;
    private volatile boolean closed;
    private Subscription subscription;
    private String serialKey;
    private long lastSerial = -1;
    private boolean announced;
    /** Guards the serial check and the frames kept for replay, apart from sign-in (which waits on the master). */
    private final Object jobLock = new Object();
    private final List<byte[]> undecrypted = new ArrayList<>();

    LightMinion(Shared shared, String id, KeyCache keys, Transport transport) {
        this.shared = shared;
        this.id = id;
        this.transport = transport;
        this.keyPair = RsaKeys.readKeyPair(keys.privateKey(id));
        this.tokFile = keys.tok(id);
        SwarmSettings s = shared.settings;
        this.client = transport.connectRequestClient("127.0.0.1", s.retPort());
        Duration timeout = Duration.ofSeconds(s.authTimeout());
        this.signIn = new SignIn(id, keyPair, new MasterKeyPin(shared.pkiDir, ""), client, timeout);
        this.seal = ReturnSeal.of(shared.settings.signReturns() ? keyPair.getPrivate() : null);
        this.channel = new MasterChannel(client, () -> session, this::reauthenticate, timeout,
                Duration.ofMillis(s.requestIdleCloseMs()));
    }

    @Override
    public void start() {
        queueSignIn(0);
    }

    @Override
    public boolean isSignedIn() {
        return session != null;
    }

    @Override
    public Instant signedInAt() {
        return signedInAt;
    }

    private void queueSignIn(long delayMs) {
        if (!closed && signInQueued.compareAndSet(false, true)) {
            shared.work.schedule(() -> guarded("sign-in", this::signInOnce), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /** A task on the shared pool must not fail silently (a scheduled executor keeps the exception to itself). */
    private void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.warn("{}: {} failed: {}", id, what, e.toString());
        }
    }

    private synchronized void signInOnce() {
        signInQueued.set(false);
        if (closed) {
            return;
        }
        SignInResult result = signIn.attempt();
        if (result instanceof SignInResult.Accepted a) {
            accepted(a.session());
            List<byte[]> replay;
            synchronized (jobLock) {
                replay = new ArrayList<>(undecrypted);
                undecrypted.clear();
            }
            replay.forEach(this::onPublication);
        } else {
            session = null;
            queueSignIn(1000 + ThreadLocalRandom.current().nextLong(1000));
        }
    }

    private void accepted(Session s) {
        session = s;
        signedInAt = Instant.now();
        if (subscription == null) {
            subscription = transport.subscribe("127.0.0.1", s.publishPort(), List.of(new byte[0], Topics.presenceOf(id)), this::onPublication);
            subscription.connectionListener(new PublisherWatch());
        }
        if (!announced) {
            announced = true;
            // as the product's minion: kept beside the key (MinionTok), so a swarm run after the first reads it
            byte[] tok = MinionTok.loadOrMake(tokFile, keyPair, why -> log.warn("{}: tok not kept: {}", id, why));
            // as the product's minion: both in one request to a jsalt master (it gave a return secret)
            for (Map<String, Object> load : StartEvents.loads(id, tok, "Minion " + id + " started", s.returnMac() != null)) {
                try {
                    channel.send(load);
                } catch (RuntimeException e) {
                    // a start event is news, not state: the swarm goes on without it
                }
            }
        }
    }

    private synchronized Session reauthenticate(Session failed) {
        if (session != failed) {
            return session;
        }
        SignInResult result = signIn.attempt();
        if (result instanceof SignInResult.Accepted a) {
            accepted(a.session());
            return session;
        }
        return null;
    }

    /** On the subscription loop thread: hand the frame to the shared pool at once. */
    private void onPublication(byte[] frame) {
        if (!closed) {
            shared.jobs.execute(() -> guarded("job", () -> runJob(frame)));
        }
    }

    private void runJob(byte[] frame) {
        Session s = session;
        if (s == null) {
            return;
        }
        Map<String, Object> load;
        try {
            load = Publication.decode(frame, s.crypticle(), s.masterKey(), true);
        } catch (CrypticleAuthException e) {
            synchronized (jobLock) {
                undecrypted.add(frame);
            }
            queueSignIn(ThreadLocalRandom.current().nextLong(shared.settings.reauthDelay() * 1000L + 1));
            return;
        } catch (CryptoException | WireException e) {
            return;
        }
        if (!acceptSerial(s, load.get("serial"))) {
            return;
        }
        PublishLoad job = PublishLoad.fromLoad(load);
        if (!TargetMatcher.of(job.tgtType(), job.tgt()).matches(id)) {
            return;
        }
        CallResult result = shared.registry.call(job.fun(), job.arg());
        ReturnLoad ret = new ReturnLoad(id, job.jid(), job.fun(), job.arg(), result.ret(), result.retcode(), result.success());
        deliver(ret.toLoad(), 1);
    }

    private boolean acceptSerial(Session s, Object serial) {
        synchronized (jobLock) {
            return acceptSerialLocked(s, serial);
        }
    }

    private boolean acceptSerialLocked(Session s, Object serial) {
        if (!s.crypticle().keyString().equals(serialKey)) {
            serialKey = s.crypticle().keyString();
            lastSerial = -1;
        }
        if (!(serial instanceof Number n) || n.longValue() <= lastSerial) {
            return false;
        }
        lastSerial = n.longValue();
        return true;
    }

    private void deliver(Map<String, Object> load, int attempt) {
        try {
            channel.send(s -> seal.forSession(s, load)); // the product's choice: the session's MAC, else a signature
        } catch (TransportException | io.jsalt.minion.channel.NotSignedInException e) {
            if (attempt < RETURN_TRIES && !closed) {
                shared.work.schedule(() -> deliver(load, attempt + 1), 2000L * attempt, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** A publish connection that drops and comes back: the master restarted; sign in again, spread out. */
    private final class PublisherWatch implements ConnectionListener {
        @Override
        public void onConnected() {
            if (publisherLost.compareAndSet(true, false)) {
                queueSignIn(ThreadLocalRandom.current().nextLong(shared.settings.reauthDelay() * 1000L + 1));
            }
        }

        @Override
        public void onDisconnected() {
            publisherLost.set(true);
        }
    }

    @Override
    public void close() {
        closed = true;
        if (subscription != null) {
            subscription.close();
        }
        client.close();
    }
}
