package io.jsalt.master;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.auth.Eauth;
import io.jsalt.master.auth.EauthSettings;
import io.jsalt.master.auth.TokenFiles;
import io.jsalt.master.cluster.ClusterState;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.events.LocalEvents;
import io.jsalt.master.files.FileServer;
import io.jsalt.master.files.FileServerCommands;
import io.jsalt.master.files.MasterOptsCommand;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.JobCaches;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.maintenance.Maintenance;
import io.jsalt.master.maintenance.Presence;
import io.jsalt.master.pillar.ExposedPillarRoots;
import io.jsalt.master.pillar.PillarCache;
import io.jsalt.master.pillar.PillarCompiler;
import io.jsalt.master.ports.BorrowedTransport;
import io.jsalt.master.ports.MWorker;
import io.jsalt.master.ports.PortRelease;
import io.jsalt.master.ports.PublishPort;
import io.jsalt.master.ports.RequestPort;
import io.jsalt.master.ports.TransportService;
import io.jsalt.master.ports.TransportWatch;
import io.jsalt.master.process.RestartPolicy;
import io.jsalt.master.process.Supervisor;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.publish.LateSignIns;
import io.jsalt.master.request.AesCommand;
import io.jsalt.master.request.AuthHandler;
import io.jsalt.master.request.ClearCommand;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.request.EauthGuard;
import io.jsalt.master.request.EventAccess;
import io.jsalt.master.request.JobReadRule;
import io.jsalt.master.request.HookEvent;
import io.jsalt.master.request.MinionEventHandler;
import io.jsalt.master.request.MinionTrust;
import io.jsalt.master.request.OwnJobReturns;
import io.jsalt.master.request.PillarHandler;
import io.jsalt.master.request.PingHandler;
import io.jsalt.master.request.PublishHandler;
import io.jsalt.master.request.RequestDispatcher;
import io.jsalt.master.request.RequestFreshness;
import io.jsalt.master.request.ReturnHandler;
import io.jsalt.master.request.TokenCommands;
import io.jsalt.master.request.WheelHandler;
import io.jsalt.master.wheel.KeyWheel;
import io.jsalt.master.wheel.MasterWheel;
import io.jsalt.master.wheel.RootsWheel;
import io.jsalt.master.wheel.WheelFunctions;
import io.jsalt.master.runner.JobsRunner;
import io.jsalt.master.runner.ManageRunner;
import io.jsalt.master.runner.MinionJobs;
import io.jsalt.master.runner.RunnerCalls;
import io.jsalt.master.runner.RunnerCommand;
import io.jsalt.master.runner.RunnerRegistry;
import io.jsalt.master.runner.TargetRunner;
import io.jsalt.master.supervision.FleetProcesses;
import io.jsalt.master.supervision.SupervisorRunner;
import io.jsalt.master.session.ReturnMacKeys;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.session.SignIns;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.Transport;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master: key store, session key, event bus, job cache, and its supervised components (local event
 * socket, transport, publisher, request server and each MWorker, maintenance), wired from a
 * {@link MasterConfig}. {@link #start()} binds the ports; {@link #close()} stops everything in reverse
 * order. It never exits the JVM: when a component cannot be kept up, {@link #failure()} says why and the
 * launcher decides.
 */
public final class Master implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Master.class);
    private static final java.time.Duration PORT_RELEASE_WAIT = java.time.Duration.ofSeconds(5);

    /** The live settings: replaced by {@link #reload}; everything that may change live reads it here. */
    private volatile MasterConfig config;
    private final Supplier<Transport> transports;
    private final MasterTimings timings;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final EventBus events = new EventBus();
    private volatile LocalEvents localEvents;
    private final SessionKey sessionKey = new SessionKey();
    private final SignIns signIns = new SignIns();
    private final Jids jids = new Jids();
    /** The minions' grains, durable under cachedir/minions; made in start(), where the cachedir is known. */
    private MinionDataCache minionData;
    /** The pillar compiled for each minion, for pillar targeting; in memory only (pillar holds secrets). */
    private final PillarCache pillars = new PillarCache();
    private final CompletableFuture<String> failure = new CompletableFuture<>();
    private MinionKeys keys;
    /** Set when this master is one of a cluster (cluster_id): keys, session key and grains shared in PostgreSQL. */
    private ClusterState cluster;
    private JobCache jobs;
    private Supervisor supervisor;
    /** Set once start() has bound both ports: close() then waits until they are free again. */
    private boolean portsBound;
    private PublishPort publishPort;
    private RequestPort requestPort;
    /** How many MWorker services are registered; changed only inside {@link Supervisor#reconfigure}. */
    private int workerServices;

    /**
     * A master whose first socket context is {@code transport}, which stays its caller's to close (it may
     * be shared); a restarted transport is made by {@link Transport#create()} and closed by the master.
     */
    public Master(MasterConfig config, Transport transport) {
        this(config, firstThenNew(transport), MasterTimings.DEFAULT);
    }

    /** A master that makes its socket contexts with {@code transports}, and closes each. */
    public Master(MasterConfig config, Supplier<Transport> transports) {
        this(config, transports, MasterTimings.DEFAULT);
    }

    public Master(MasterConfig config, Supplier<Transport> transports, MasterTimings timings) {
        this.config = config;
        this.transports = transports;
        this.timings = timings;
    }

    private static Supplier<Transport> firstThenNew(Transport first) {
        AtomicReference<Transport> given = new AtomicReference<>(new BorrowedTransport(first));
        return () -> {
            Transport t = given.getAndSet(null);
            return t != null ? t : Transport.create();
        };
    }

    public synchronized void start() {
        try {
            KeyPair masterKey = RsaKeys.loadOrCreate(config.pkiDir(), "master");
            if (ClusterState.configured(config)) {
                cluster = ClusterState.join(config, masterKey, sessionKey);
                started.push(cluster);
                keys = cluster.keys();
                minionData = cluster.grains();
            } else {
                keys = new KeyStore(config.pkiDir());
                minionData = new MinionDataCache(config.cachedir());
            }
            minionData.retainOnly(id -> keys.stateOf(id).filter(KeyState.ACCEPTED::equals).isPresent());
            warnIfPillarIsServed(config);
            ClientKey clientKey = ClientKey.create(config.cachedir(), System.getProperty("user.name"));
            jobs = JobCaches.open(config, jids);
            started.push(jobs);
            JobCaches.shareEvents(config, events, masterKey).ifPresent(started::push);
            MasterConfig.Supervision s = config.supervision();
            supervisor = new Supervisor(new RestartPolicy(s.restartMax(), Duration.ofSeconds(s.restartWindowSeconds()),
                    s.restartForever(), timings.initialBackoff(), timings.maxBackoff()), timings.healthCheck(), timings.closeWait());
            supervisor.failure().thenAccept(failure::complete);
            TransportWatch watch = startComponents(masterKey, clientKey);
            started.push(watch);
            started.push(supervisor);
            supervisor.start();
            portsBound = true;
            log.info("master up: publish port {}, request port {}, {} workers", publishPort.port(), requestPort.port(),
                    config.workerThreads());
        } catch (RuntimeException e) {
            if (supervisor != null && !started.contains(supervisor)) {
                supervisor.close();
            }
            close();
            throw e;
        }
    }

    private TransportWatch startComponents(KeyPair masterKey, ClientKey clientKey) {
        String host = config.interfaceAddress(); // interface and ports change only with a restart of the master
        localEvents = new LocalEvents(events, config.sockDir());
        supervisor.add(localEvents);
        TransportService transport = new TransportService(transports);
        supervisor.add(transport);
        publishPort = new PublishPort(transport, () -> host, config.publishPort(), timings.rebindFor());
        supervisor.add(publishPort, transport.name());
        JobPublisher publisher = new JobPublisher(publishPort, sessionKey,
                config.signPubMessages() ? masterKey.getPrivate() : null, config.zmqFiltering());
        // the fleet table of supervised processes outlives a master restart when the job cache is on disk, and is
        // shared by every master on the database with PostgreSQL
        FleetProcesses fleet = new FleetProcesses(java.time.Clock.systemUTC(), switch (config.masterJobCache()) {
            case "sqlite" -> io.jsalt.master.supervision.SqliteFleetStore.open(config.cachedir());
            case "postgres" -> io.jsalt.master.supervision.PgFleetStore.open(config.postgres(),
                    io.jsalt.master.jobs.JobCaches.masterId(config));
            default -> io.jsalt.master.supervision.FleetStore.NONE;
        });
        started.push(fleet);
        events.addListener(fleet);
        io.jsalt.master.session.LastSeen lastSeen = new io.jsalt.master.session.LastSeen(java.time.Clock.systemUTC());
        events.addListener(lastSeen);
        // what this master knows of a minion beyond its key and grains, forgotten when the key goes, here or on
        // another master of the cluster: one list, so the two paths cannot drift apart
        java.util.function.Consumer<String> forgetMinion = id -> {
            pillars.forget(id);
            signIns.forget(id);
            fleet.forget(id);
            lastSeen.forget(id);
        };
        KeyAdmin keyAdmin = new KeyAdmin(keys, events, this::onKeyRevoked, id -> {
            minionData.forget(id);
            forgetMinion.accept(id);
        });
        if (cluster != null) {
            // a key revoked on another master: this one forgets the minion as that one did (grains follow on their own)
            cluster.keys().whenRevokedElsewhere(forgetMinion.andThen(minionData::keyRevokedElsewhere));
        }
        TargetResolver targets = new TargetResolver(keys, minionData, pillars, () -> this.config.nodegroups());
        LateSignIns lateSignIns = new LateSignIns(jobs, targets, publisher, publishPort::subscribedTopics,
                () -> Duration.ofSeconds((long) this.config.timeout() + this.config.gatherJobTimeout()),
                LateSignIns.SUBSCRIBE_WAIT, java.time.Clock.systemUTC());
        started.push(lateSignIns);
        events.addListener(lateSignIns);
        publisher.whenNotListening(lateSignIns::missed);
        JobCaches.relayPublications(config, masterKey, job -> publishRelayed(publisher, targets, job)).ifPresent(relay -> {
            started.push(relay);
            publisher.whenPublished(relay::relay);
        });
        MinionJobs minionJobs = new MinionJobs(targets, jobs, jids, events, publisher, () -> this.config.workerThreads());
        ManageRunner manage = new ManageRunner(keys, keyAdmin, minionJobs, publishPort::subscribedTopics, () -> this.config.timeout(),
                cluster == null ? Set::of : () -> cluster.presence().elsewhere(presenceFreshness()));
        RunnerRegistry runners = new RunnerRegistry(List.of(
                new JobsRunner(jobs, minionJobs, () -> this.config.timeout()),
                manage,
                new TargetRunner(targets),
                new SupervisorRunner(fleet, targets, publishPort::subscribedTopics, minionJobs, () -> this.config.timeout()),
                new io.jsalt.master.runner.LastSeenRunner(lastSeen)));
        FileServer fileServer = new FileServer(() -> this.config.fileRoots(), () -> this.config.fileBufferSize());
        FileServerCommands files = new FileServerCommands(fileServer);
        MasterOptsCommand masterOpts = new MasterOptsCommand(fileServer, () -> this.config.nodegroups());
        // eauth users (a token or credentials instead of the root key) are checked here, on the master
        EauthSettings eauthSettings = new EauthSettings(config.configDir());
        Eauth eauth = new Eauth(eauthSettings, new TokenFiles(config.cachedir().resolve("tokens"), java.time.Clock.systemUTC(),
                () -> eauthSettings.current().tokenExpire()));
        TokenCommands tokens = new TokenCommands(eauth, clientKey);
        ReturnMacKeys returnMacs = new ReturnMacKeys(masterKey.getPrivate(), sessionKey);
        RunnerCalls runnerCalls = new RunnerCalls();
        RunnerCommand runnerCommand = new RunnerCommand(clientKey, runners, jids, events, runnerCalls);
        started.push(runnerCommand);
        RunnerCalls wheelCalls = new RunnerCalls();
        WheelFunctions wheelFunctions = new WheelFunctions(List.of(new KeyWheel(keyAdmin, keys),
                new RootsWheel("file_roots", () -> this.config.fileRoots()),
                new RootsWheel("pillar_roots", () -> this.config.pillar().roots()),
                new MasterWheel(() -> this.config, manage::connected)));
        WheelHandler wheel = new WheelHandler(clientKey, wheelFunctions, jids, events, wheelCalls);
        started.push(wheel);
        Map<String, ClearCommand> clear = Map.ofEntries(
                Map.entry("_auth", new AuthHandler(keys, masterKey, sessionKey, events,
                        () -> new AuthHandler.Policy(this.config.autoAccept(), this.config.openMode(), this.config.maxMinions(),
                                this.config.abuseLimits().maxPendingMinions(), this.config.abuseLimits().pendingKeysPerMinute()),
                        publishPort.port(), signIns, returnMacs)),
                Map.entry("publish", EauthGuard.publish(eauth, clientKey, targets,
                        new PublishHandler(clientKey, targets, jobs, jids, events, publisher))),
                Map.entry("wheel", EauthGuard.special("wheel", eauth, clientKey, wheel)),
                Map.entry("ping", new PingHandler()),
                Map.entry("runner", EauthGuard.special("runner", eauth, clientKey, runnerCommand)),
                Map.entry("mk_token", tokens::mkToken),
                Map.entry("get_token", tokens::getToken),
                Map.entry("rm_token", tokens::rmToken),
                Map.entry("job_returns", new OwnJobReturns(eauth, clientKey, jobs, targets)),
                Map.entry("event_access", new EventAccess(eauth, eauthSettings, jobs, runnerCalls, wheelCalls,
                        new JobReadRule(targets))),
                Map.entry("fire_hook", new HookEvent(clientKey, events)));
        MinionTrust trust = new MinionTrust(keys, () -> this.config.requireMinionSignMessages());
        Map<String, AesCommand> aes = Map.of(
                "_return", new ReturnHandler(keys, jobs, events, jids, trust, targets, returnMacs),
                "_minion_event", new MinionEventHandler(keys, events, trust, signIns),
                "_pillar", new PillarHandler(keys, masterKey.getPrivate(), (id, grains, verified, stamp) -> {
                    minionData.putGrains(id, grains, verified, stamp);
                    if (verified) {
                        trust.proved(id);
                    }
                }, new PillarCompiler(() -> this.config.pillar(), () -> this.config.nodegroups()), pillars),
                "_file_list", files::fileList,
                "_file_envs", files::fileEnvs,
                "_master_opts", masterOpts::masterOpts,
                "_master_tops", masterOpts::masterTops,
                "_file_hash", files::fileHash,
                "_serve_file", files::serveFile);
        requestPort = new RequestPort(transport, () -> host, config.retPort(), () -> this.config.workerThreads(),
                new RequestDispatcher(sessionKey, clear, aes,
                        new RequestFreshness(() -> Duration.ofSeconds(this.config.abuseLimits().requestMaxAgeSeconds()))),
                timings.rebindFor(), new RequestLimits(
                        config.requestPortLimits().maxRequestSize(), config.requestPortLimits().maxInflightRequestBytes()),
                config.requestPortLimits().requestServer());
        supervisor.add(requestPort, transport.name());
        addWorkers(config.workerThreads());
        TransportWatch watch = new TransportWatch(transport, requestPort, () -> host,
                () -> supervisor.isRunning(transport.name()) && supervisor.isRunning(requestPort.name()),
                timings.probeTimeout(), timings.probeFailures());
        Presence presence = new Presence(keys, publishPort::subscribedTopics, signIns, events);
        supervisor.add(new Maintenance(() -> this.config, sessionKey, jobs, cluster == null ? presence
                : presence.andThen(c -> cluster.presence().publish(presence.presentNow())), watch::check, timings.probeInterval()));
        return watch;
    }

    /** Another master's job, relayed through the database: to the minions of this master that it targets. */
    private static void publishRelayed(JobPublisher publisher, TargetResolver targets, io.jsalt.transport.message.PublishLoad job) {
        try {
            List<String> to = targets.resolve(job.tgtType(), job.tgt()).publishTo();
            publisher.publishRelayed(job, to);
            log.info("published job {} ({}) of another master to {} minion(s)", job.jid(), job.fun(), to.size());
        } catch (io.jsalt.transport.target.InvalidTargetException e) {
            log.warn("relayed job {} not published here: its target does not resolve on this master: {}", job.jid(), e.getMessage());
        }
    }

    private static void warnIfPillarIsServed(MasterConfig c) {
        for (String exposed : ExposedPillarRoots.find(c.fileRoots(), c.pillar().roots())) {
            log.warn("pillar_roots folder {}: the file server serves it to every minion; move it out of file_roots", exposed);
        }
    }

    private void addWorkers(int count) {
        while (workerServices < count) {
            supervisor.add(new MWorker(requestPort, workerServices++), requestPort.name());
        }
    }

    /**
     * Applies a re-read configuration (SIGHUP). Settings read per request or per maintenance round change
     * at once (auto_accept, open_mode, max_minions, require_minion_sign_messages, rotate_aes_key, timeout,
     * loop_interval, publish_session, keep_jobs_seconds), and worker_threads grows or shrinks the MWorker
     * pool live. Returns the keys whose new values need a restart, which keep their old values until then.
     */
    public synchronized List<String> reload(MasterConfig next) {
        List<String> needRestart = new ArrayList<>();
        MasterConfig now = config;
        needsRestart(needRestart, "interface", now.interfaceAddress(), next.interfaceAddress());
        needsRestart(needRestart, "publish_port", now.publishPort(), next.publishPort());
        needsRestart(needRestart, "ret_port", now.retPort(), next.retPort());
        needsRestart(needRestart, "pki_dir", now.pkiDir(), next.pkiDir());
        needsRestart(needRestart, "cachedir", now.cachedir(), next.cachedir());
        needsRestart(needRestart, "master_job_cache", now.masterJobCache(), next.masterJobCache());
        needsRestart(needRestart, "cluster_id", now.postgres().clusterId(), next.postgres().clusterId());
        needsRestart(needRestart, "sock_dir", now.sockDir(), next.sockDir());
        needsRestart(needRestart, "zmq_filtering", now.zmqFiltering(), next.zmqFiltering());
        needsRestart(needRestart, "sign_pub_messages", now.signPubMessages(), next.signPubMessages());
        needsRestart(needRestart, "component_restart_*", now.supervision(), next.supervision());
        warnIfPillarIsServed(next);
        if (supervisor == null) {
            config = next;
        } else {
            supervisor.reconfigure(() -> {
                config = next; // first: a request server bound from now on has the new pool size
                resizeWorkers(next.workerThreads());
            });
        }
        log.info("configuration reloaded{}", needRestart.isEmpty() ? "" : "; needs a restart to change: " + needRestart);
        return needRestart;
    }

    /** Runs inside {@link Supervisor#reconfigure}: no restart can bind a server while the pool changes. */
    private void resizeWorkers(int workers) {
        if (workers == workerServices) {
            return;
        }
        boolean bound = supervisor.isRunning(requestPort.name());
        if (workers < workerServices) {
            while (workerServices > workers) {
                supervisor.remove(MWorker.name(--workerServices));
            }
            if (bound) {
                requestPort.server().resize(workers);
            }
        } else {
            if (bound) {
                requestPort.server().resize(workers);
            }
            addWorkers(workers);
        }
        log.info("MWorker pool resized to {}", workers);
    }

    private static void needsRestart(List<String> keys, String key, Object was, Object is) {
        if (!Objects.equals(was, is)) {
            keys.add(key);
        }
    }

    /** How long a minion seen present by another master of the cluster counts as present: three maintenance rounds. */
    private Duration presenceFreshness() {
        return Duration.ofSeconds(3L * config.loopInterval());
    }

    private void onKeyRevoked() {
        if (config.rotateAesKey()) {
            sessionKey.rotate("a minion key was deleted or rejected");
        }
    }

    /**
     * Completed with the reason when a component died more often than {@code component_restart_max} within
     * {@code component_restart_window} and {@code component_restart_forever} is off: the master can no longer
     * serve as configured, and its launcher should close it and exit non-zero. Never completed otherwise.
     */
    public CompletableFuture<String> failure() {
        return failure;
    }

    /** How many times the named component ({@code transport}, {@code publisher}, {@code mworker-0}, ...) was restarted. */
    public int restarts(String component) {
        Supervisor s = supervisor;
        return s == null ? 0 : s.restarts(component);
    }

    /** True while the named component is up, as far as the process manager knows. */
    public boolean isUp(String component) {
        Supervisor s = supervisor;
        return s != null && s.isRunning(component);
    }

    /** The names of the supervised components, in start order. */
    public List<String> components() {
        Supervisor s = supervisor;
        return s == null ? List.of() : s.names();
    }

    public EventBus events() {
        return events;
    }

    /** How many local readers (the CLI, jsalt-event, jsalt-api's subscriptions) hold the event socket now. */
    public int localEventReaders() {
        LocalEvents l = localEvents;
        return l == null ? 0 : l.readerCount();
    }

    public MinionKeys keys() {
        return keys;
    }

    public JobCache jobs() {
        return jobs;
    }

    public int publishPort() {
        return publishPort.port();
    }

    public int requestPort() {
        return requestPort.port();
    }

    /** Stops everything in reverse order and returns once both ports can be bound again. */
    @Override
    public synchronized void close() {
        boolean hadPorts = portsBound;
        portsBound = false;
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                log.warn("error while stopping: {}", e.toString());
            }
        }
        if (hadPorts) {
            String host = config.interfaceAddress();
            for (int port : new int[] {config.publishPort(), config.retPort()}) {
                if (!PortRelease.await(host, port, PORT_RELEASE_WAIT)) {
                    log.warn("port {} is still bound {} s after stopping", port, PORT_RELEASE_WAIT.toSeconds());
                }
            }
        }
    }
}
