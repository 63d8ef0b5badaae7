package io.jsalt.master.jobs;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.cluster.ClusterSeal;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.pg.PgEventBridge;
import io.jsalt.master.jobs.pg.PgPublicationRelay;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.master.jobs.pg.PostgresJobCache;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.KeyPair;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/** Opens the job cache {@code master_job_cache} names; the one place that knows every implementation. */
public final class JobCaches {
    private JobCaches() {
    }

    public static JobCache open(MasterConfig config) {
        return open(config, null);
    }

    /**
     * As {@link #open(MasterConfig)}; with a database shared by several masters ({@code postgres}), {@code jids}
     * (when given) are kept apart from the other masters' (a slot each, docs/multi-master.md).
     */
    public static JobCache open(MasterConfig config, Jids jids) {
        return switch (config.masterJobCache()) {
            case "memory" -> new MemoryJobCache();
            case "sqlite" -> SqliteJobCache.open(config.cachedir());
            case "postgres" -> PostgresJobCache.open(config.postgres(), config.cachedir(), masterId(config), jids);
            default -> throw new IllegalArgumentException("unknown master_job_cache: " + config.masterJobCache());
        };
    }

    /**
     * With {@code master_job_cache: postgres} and {@code event_return: pgjsonb}: the bus shared with every
     * master on the database (docs/multi-master.md), to close with the master; otherwise nothing. The
     * event_return of another job cache is refused, since the events table lives in that database. Events are
     * sealed with a MAC from {@code masterKey}: only masters holding the same master key relay each other's.
     */
    public static Optional<AutoCloseable> shareEvents(MasterConfig config, EventBus bus, KeyPair masterKey) {
        if (!config.postgres().eventReturn()) {
            return Optional.empty();
        }
        if (!"postgres".equals(config.masterJobCache())) {
            throw new IllegalArgumentException("event_return: pgjsonb needs master_job_cache: postgres");
        }
        return Optional.of(PgEventBridge.start(config.postgres(), masterId(config), bus, new ClusterSeal(masterKey.getPrivate())));
    }

    /**
     * With {@code master_job_cache: postgres}: the relay of publications between the masters on the database
     * (docs/multi-master.md), to close with the master; {@code publishHere} publishes another master's job to this
     * master's minions. Otherwise nothing.
     */
    public static Optional<PgPublicationRelay> relayPublications(MasterConfig config, KeyPair masterKey,
            Consumer<PublishLoad> publishHere) {
        if (!"postgres".equals(config.masterJobCache())) {
            return Optional.empty();
        }
        return Optional.of(PgPublicationRelay.start(config.postgres(), masterId(config), masterKey, publishHere, Clock.systemUTC()));
    }

    /** As Salt names a master ({@code <host>_master}), with the request port, since masters may share a host. */
    public static String masterId(MasterConfig config) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + "_master:" + config.retPort();
    }
}
