package io.jsalt.master;

import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.events.LocalEventServer;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.jobs.JobCache;
import io.jsalt.master.jobs.MemoryJobCache;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.publish.JobPublisher;
import io.jsalt.master.request.AesCommand;
import io.jsalt.master.request.AuthHandler;
import io.jsalt.master.request.ClearCommand;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.request.MinionEventHandler;
import io.jsalt.master.request.PillarHandler;
import io.jsalt.master.request.PublishHandler;
import io.jsalt.master.request.RequestDispatcher;
import io.jsalt.master.request.ReturnHandler;
import io.jsalt.master.request.WheelHandler;
import io.jsalt.master.session.SessionKey;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import java.security.KeyPair;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master: key store, session key, event bus, job cache, publisher and request server, wired from a
 * {@link MasterConfig}. {@link #start()} binds the ports; {@link #close()} stops everything in reverse
 * order. It never exits the JVM: the launcher decides that.
 */
public final class Master implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Master.class);

    /** The live settings: replaced by {@link #reload}; everything that may change live reads it here. */
    private volatile MasterConfig config;
    private final Transport transport;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final EventBus events = new EventBus();
    private final SessionKey sessionKey = new SessionKey();
    private final Jids jids = new Jids();
    private final MinionDataCache minionData = new MinionDataCache();
    private KeyStore keys;
    private JobCache jobs;
    private PublishServer publishServer;
    private RequestServer requestServer;

    public Master(MasterConfig config, Transport transport) {
        this.config = config;
        this.transport = transport;
    }

    public synchronized void start() {
        try {
            keys = new KeyStore(config.pkiDir());
            KeyPair masterKey = RsaKeys.loadOrCreate(config.pkiDir(), "master");
            ClientKey clientKey = ClientKey.create(config.cachedir(), System.getProperty("user.name"));
            jobs = new MemoryJobCache();
            started.push(jobs);
            LocalEventServer localEvents = new LocalEventServer(config.sockDir());
            events.addListener(localEvents);
            started.push(localEvents);

            publishServer = transport.bindPublisher(config.interfaceAddress(), config.publishPort());
            started.push(publishServer);
            JobPublisher publisher = new JobPublisher(publishServer, sessionKey,
                    config.signPubMessages() ? masterKey.getPrivate() : null, config.zmqFiltering());
            KeyAdmin keyAdmin = new KeyAdmin(keys, events, this::onKeyRevoked);

            Map<String, ClearCommand> clear = Map.of(
                    "_auth", new AuthHandler(keys, masterKey, sessionKey, events,
                            () -> new AuthHandler.Policy(this.config.autoAccept(), this.config.openMode(), this.config.maxMinions()),
                            publishServer.port()),
                    "publish", new PublishHandler(clientKey, keys, jobs, jids, events, publisher),
                    "wheel", new WheelHandler(clientKey, keyAdmin));
            Map<String, AesCommand> aes = Map.of(
                    "_return", new ReturnHandler(keys, jobs, events, jids, () -> this.config.requireMinionSignMessages()),
                    "_minion_event", new MinionEventHandler(keys, events),
                    "_pillar", new PillarHandler(keys, masterKey.getPrivate(), minionData::putGrains));
            requestServer = transport.bindRequestServer(config.interfaceAddress(), config.retPort(), config.workerThreads(),
                    new RequestDispatcher(sessionKey, clear, aes));
            started.push(requestServer);
            log.info("master up: publish port {}, request port {}, {} workers", publishServer.port(), requestServer.port(),
                    config.workerThreads());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Applies a re-read configuration (SIGHUP). Settings read per request change at once (auto_accept,
     * open_mode, max_minions, require_minion_sign_messages, rotate_aes_key, timeout); returns the keys
     * whose new values need a restart, which keep their old values until then.
     */
    public synchronized java.util.List<String> reload(MasterConfig next) {
        java.util.List<String> needRestart = new java.util.ArrayList<>();
        MasterConfig now = config;
        needsRestart(needRestart, "interface", now.interfaceAddress(), next.interfaceAddress());
        needsRestart(needRestart, "publish_port", now.publishPort(), next.publishPort());
        needsRestart(needRestart, "ret_port", now.retPort(), next.retPort());
        needsRestart(needRestart, "worker_threads", now.workerThreads(), next.workerThreads());
        needsRestart(needRestart, "pki_dir", now.pkiDir(), next.pkiDir());
        needsRestart(needRestart, "cachedir", now.cachedir(), next.cachedir());
        needsRestart(needRestart, "sock_dir", now.sockDir(), next.sockDir());
        needsRestart(needRestart, "zmq_filtering", now.zmqFiltering(), next.zmqFiltering());
        needsRestart(needRestart, "sign_pub_messages", now.signPubMessages(), next.signPubMessages());
        config = next;
        log.info("configuration reloaded{}", needRestart.isEmpty() ? "" : "; needs a restart to change: " + needRestart);
        return needRestart;
    }

    private static void needsRestart(java.util.List<String> keys, String key, Object was, Object is) {
        if (!java.util.Objects.equals(was, is)) {
            keys.add(key);
        }
    }

    private void onKeyRevoked() {
        if (config.rotateAesKey()) {
            sessionKey.rotate("a minion key was deleted or rejected");
        }
    }

    public EventBus events() {
        return events;
    }

    public KeyStore keys() {
        return keys;
    }

    public JobCache jobs() {
        return jobs;
    }

    public int publishPort() {
        return publishServer.port();
    }

    public int requestPort() {
        return requestServer.port();
    }

    @Override
    public synchronized void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                log.warn("error while stopping: {}", e.toString());
            }
        }
    }
}
