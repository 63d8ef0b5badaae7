package io.jsalt.master.cluster;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.jobs.JobCaches;
import io.jsalt.master.jobs.pg.PgConnector;
import io.jsalt.master.session.SessionKey;
import java.security.KeyPair;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the masters of a cluster ({@code cluster_id}, with {@code master_job_cache: postgres}) share in the
 * database beside jobs and returns: the minions' keys, the session key, the minions' grains and presence; checked to be
 * the cluster this master belongs to, with the master key it must hold; followed through one listening
 * connection ({@link ClusterChanges}). A master of a cluster needs its database at start (it would otherwise
 * know no key); afterwards it serves from memory while the database is away, and refuses key changes.
 */
public final class ClusterState implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterState.class);
    private static final long LISTEN_WAIT_MILLIS = 5_000;

    private final ClusterDb db;
    private final PgKeyStore keys;
    private final ClusterSessionKey session;
    private final MinionDataCache grains;
    private final PgPresence presence;
    private final ClusterChanges changes;

    private ClusterState(ClusterDb db, PgKeyStore keys, ClusterSessionKey session, MinionDataCache grains, PgPresence presence,
            ClusterChanges changes) {
        this.db = db;
        this.keys = keys;
        this.session = session;
        this.grains = grains;
        this.presence = presence;
        this.changes = changes;
    }

    /** True when {@code config} makes this master one of a cluster. */
    public static boolean configured(MasterConfig config) {
        return config.postgres().clusterId() != null;
    }

    /**
     * Joins the cluster {@code config} names: the schema made where missing, the cluster's identity checked,
     * its keys, session key (adopted by {@code sessionKey}) and grains read, and their changes followed.
     *
     * @throws IllegalArgumentException without {@code master_job_cache: postgres}
     * @throws ClusterException when the database is away or refuses, or this master does not belong
     */
    public static ClusterState join(MasterConfig config, KeyPair masterKey, SessionKey sessionKey) {
        ClusterDb db = open(config, masterKey);
        ClusterChanges changes = null;
        try {
            String masterId = JobCaches.masterId(config);
            MasterSeal seal = new MasterSeal(masterKey);
            ClusterSeal mac = new ClusterSeal(masterKey.getPrivate());
            PgKeyStore keys = PgKeyStore.open(config.pkiDir(), db, seal, mac, masterId);
            ClusterSessionKey session = ClusterSessionKey.open(db, seal, sessionKey, masterId);
            PgMinionData data = new PgMinionData(db, masterId, mac);
            MinionDataCache grains = new MinionDataCache(data);
            data.follow(grains);
            changes = new ClusterChanges(db.connector()).follow(PgKeyStore.CHANNEL, keys)
                    .follow(ClusterSessionKey.CHANNEL, session).follow(PgMinionData.CHANNEL, data);
            changes.start(LISTEN_WAIT_MILLIS);
            LOG.info("cluster '{}': keys, session key and grains shared with every master on {} (session key generation {})",
                    config.postgres().clusterId(), db.connector().describe(), session.generation());
            return new ClusterState(db, keys, session, grains, new PgPresence(db, masterId, mac), changes);
        } catch (RuntimeException e) {
            if (changes != null) {
                changes.close();
            }
            db.close();
            throw e;
        }
    }

    /**
     * For {@code jsalt-key} when no master runs on this host: the cluster's keys, read once and not followed,
     * and what a master does when a key is revoked (a new session key for every master, the minion's grains
     * forgotten); empty when {@code config} names no cluster.
     */
    public static Optional<KeyTool> keyToolFor(MasterConfig config, KeyPair masterKey) {
        if (!configured(config)) {
            return Optional.empty();
        }
        ClusterDb db = open(config, masterKey);
        String masterId = JobCaches.masterId(config) + " (jsalt-key)";
        MasterSeal seal = new MasterSeal(masterKey);
        ClusterSeal mac = new ClusterSeal(masterKey.getPrivate());
        return Optional.of(new KeyTool(PgKeyStore.open(config.pkiDir(), db, seal, mac, masterId), db, seal, mac, masterId));
    }

    /** The cluster's keys as {@code jsalt-key} changes them without a master. */
    public record KeyTool(PgKeyStore keys, ClusterDb db, MasterSeal seal, ClusterSeal mac, String masterId) {
        /** A new session key for every master of the cluster (each adopts it when notified). */
        public void rotateSessionKey(String reason) {
            ClusterSessionKey.open(db, seal, new SessionKey(), masterId).rotate(reason);
        }

        /** The minion's grains and presence, as a master forgets them when its key goes. */
        public void forget(String id) {
            new PgMinionData(db, masterId, mac).remove(id);
        }
    }

    private static ClusterDb open(MasterConfig config, KeyPair masterKey) {
        if (!"postgres".equals(config.masterJobCache())) {
            throw new IllegalArgumentException("cluster_id needs master_job_cache: postgres (the cluster's state lives in that database)");
        }
        ClusterDb db = new ClusterDb(new PgConnector(config.postgres()));
        try {
            db.read(c -> {
                ClusterSchema.ensure(c, new ClusterSeal(masterKey.getPrivate()));
                return null;
            });
            ClusterIdentity.claimOrCheck(db, config.postgres().clusterId(), masterKey.getPublic());
            return db;
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    public PgKeyStore keys() {
        return keys;
    }

    public ClusterSessionKey session() {
        return session;
    }

    public MinionDataCache grains() {
        return grains;
    }

    public PgPresence presence() {
        return presence;
    }

    /** The listener, for tests and diagnostics. */
    public ClusterChanges changes() {
        return changes;
    }

    @Override
    public void close() {
        changes.close();
        presence.withdraw();
        db.close();
    }
}
