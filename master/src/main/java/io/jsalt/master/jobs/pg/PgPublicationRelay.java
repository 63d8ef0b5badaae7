package io.jsalt.master.jobs.pg;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.publish.RelayedPublication;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.PublishLoad;
import java.security.KeyPair;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The masters of one database publish each other's jobs, so that a job published on m1 reaches the minions
 * connected only to m2 (failover minions): every job this master publishes is written, signed with the master
 * key ({@link RelayedPublication}), to {@code jsalt_publications} and announced with
 * {@code pg_notify('jsalt_publications', '<id>:<master_id>')} in the same transaction; every master LISTENs,
 * reads the rows other masters announced, and publishes each job whose signature is its own master key's,
 * younger than a minute and not seen before, to its own minions, with its own session key, as the job's own
 * master would. A minion connected to both runs it once (its jid). Two threads, each owning its connection:
 * {@code jsalt-relay-pg-out} writes, {@code jsalt-relay-pg-in} listens. While the database is away nothing is
 * relayed (WARN): the job still reaches the publishing master's own minions. Rows older than ten minutes are
 * deleted by the writer.
 */
public final class PgPublicationRelay implements AutoCloseable {
    static final String CHANNEL = "jsalt_publications";
    private static final Logger LOG = LoggerFactory.getLogger(PgPublicationRelay.class);
    private static final int QUEUE = 1_000;
    private static final int SEEN = 10_000;
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long PRUNE_MILLIS = 60_000;
    static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS jsalt_publications (id bigserial PRIMARY KEY, master_id varchar(255) NOT NULL,"
                + " jid varchar(255) NOT NULL, created timestamptz NOT NULL DEFAULT now(), body bytea NOT NULL, sig bytea NOT NULL)",
        "CREATE INDEX IF NOT EXISTS jsalt_publications_created ON jsalt_publications (created)",
    };

    private final PgConnector connector;
    private final String masterId;
    private final KeyPair masterKey;
    private final Consumer<PublishLoad> publish;
    private final Clock clock;
    private final BlockingQueue<PublishLoad> outgoing = new ArrayBlockingQueue<>(QUEUE);
    /** (master_id, jid) of the jobs relayed here, oldest first: one relayed twice is published once. */
    private final Map<String, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > SEEN;
        }
    };
    private final Thread out;
    private final Thread in;
    private volatile boolean open = true;
    private long lastRefusalLog;

    private PgPublicationRelay(PostgresSettings settings, String masterId, KeyPair masterKey, Consumer<PublishLoad> publish, Clock clock) {
        this.connector = new PgConnector(settings);
        this.masterId = masterId;
        this.masterKey = masterKey;
        this.publish = publish;
        this.clock = clock;
        this.out = new Thread(this::writeLoop, "jsalt-relay-pg-out");
        this.in = new Thread(this::listenLoop, "jsalt-relay-pg-in");
        out.setDaemon(true);
        in.setDaemon(true);
    }

    /**
     * Starts both threads. {@code publish} publishes a job relayed from another master to this master's minions
     * (and must not relay it again); it runs on the listening thread.
     */
    public static PgPublicationRelay start(PostgresSettings settings, String masterId, KeyPair masterKey,
            Consumer<PublishLoad> publish, Clock clock) {
        PgPublicationRelay relay = new PgPublicationRelay(settings, masterId, masterKey, publish, clock);
        relay.out.start();
        relay.in.start();
        LOG.info("publications: relayed to and from every master on {} as {}", relay.connector.describe(), masterId);
        return relay;
    }

    /** Hands a job this master published to the other masters; never blocks (a full queue drops it, WARN). */
    public void relay(PublishLoad job) {
        if (!outgoing.offer(job)) {
            LOG.warn("publications: job {} not relayed to the other masters: {} jobs wait for the database", job.jid(), QUEUE);
        }
    }

    private void writeLoop() {
        Connection c = null;
        long lastPrune = 0;
        List<PublishLoad> batch = new ArrayList<>();
        while (open) {
            try {
                PublishLoad first = outgoing.poll(200, TimeUnit.MILLISECONDS);
                if (c == null && (first != null || clock.millis() - lastPrune > PRUNE_MILLIS)) {
                    c = connector.open();
                    ensureTable(c);
                }
                if (first != null) {
                    batch.add(first);
                    outgoing.drainTo(batch, 99);
                    write(c, batch);
                }
                if (c != null && clock.millis() - lastPrune > PRUNE_MILLIS) {
                    try (Statement s = c.createStatement()) {
                        s.executeUpdate("DELETE FROM jsalt_publications WHERE created < now() - interval '10 minutes'");
                    }
                    lastPrune = clock.millis();
                }
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                LOG.warn("publications: {} job(s) not relayed to the other masters through {}: {}", batch.size(),
                        connector.describe(), e.getMessage());
                c = closeQuietly(c);
                LockSupport.parkNanos(RETRY_NANOS);
            } finally {
                batch.clear();
            }
        }
        closeQuietly(c);
    }

    private static void ensureTable(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(7465371019)"); // the schema's lock (PgSchema)
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    private void write(Connection c, List<PublishLoad> batch) throws SQLException {
        PgTransaction.run(c, tx -> {
            try (PreparedStatement s = tx.prepareStatement("INSERT INTO jsalt_publications (master_id, jid, body, sig) VALUES (?, ?, ?, ?)"
                    + " RETURNING pg_notify('" + CHANNEL + "', id || ':' || master_id)")) {
                for (PublishLoad job : batch) {
                    RelayedPublication.Signed signed = new RelayedPublication(masterId, clock.instant(), job).sign(masterKey.getPrivate());
                    s.setString(1, masterId);
                    s.setString(2, job.jid());
                    s.setBytes(3, signed.body());
                    s.setBytes(4, signed.sig());
                    s.executeQuery().close();
                }
            }
            return null;
        });
    }

    private void listenLoop() {
        Connection c = null;
        while (open) {
            try {
                if (c == null) {
                    c = connector.open();
                    ensureTable(c);
                    try (Statement s = c.createStatement()) {
                        s.execute("LISTEN " + CHANNEL);
                    }
                }
                PGNotification[] notes = c.unwrap(PGConnection.class).getNotifications(500);
                List<Long> ids = new ArrayList<>();
                if (notes != null) {
                    for (PGNotification n : notes) {
                        String p = n.getParameter();
                        int colon = p.indexOf(':');
                        if (colon > 0 && !p.substring(colon + 1).equals(masterId)) {
                            ids.add(Long.parseLong(p.substring(0, colon)));
                        }
                    }
                }
                if (!ids.isEmpty()) {
                    receive(c, ids);
                }
            } catch (SQLException | RuntimeException e) {
                if (open) {
                    LOG.warn("publications: not hearing the other masters' jobs on {}: {}", connector.describe(), e.getMessage());
                    c = closeQuietly(c);
                    LockSupport.parkNanos(RETRY_NANOS);
                }
            }
        }
        closeQuietly(c);
    }

    private void receive(Connection c, List<Long> ids) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT body, sig FROM jsalt_publications WHERE id = ANY(?) ORDER BY id")) {
            Array array = c.createArrayOf("bigint", ids.toArray());
            s.setArray(1, array);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    accept(rs.getBytes(1), rs.getBytes(2));
                }
            }
        }
    }

    /** Publishes a relayed job here when it is signed with the master key, fresh, and not seen before. */
    void accept(byte[] body, byte[] sig) {
        RelayedPublication relayed;
        try {
            relayed = RelayedPublication.open(body, sig, masterKey.getPublic());
        } catch (WireException | io.jsalt.crypto.CryptoException e) {
            refuse("a relayed job was refused: " + Printable.reason(e) + " (the masters of one database must share"
                    + " master.pem, and only they may write jsalt_publications)");
            return;
        }
        String why = relayed.check(clock.instant(), masterId);
        if (why != null) {
            refuse("relayed job " + Printable.quoted(relayed.job().jid()) + " of " + relayed.masterId() + " refused: " + why);
            return;
        }
        if (seen.put(relayed.masterId() + " " + relayed.job().jid(), Boolean.TRUE) != null) {
            refuse("relayed job " + Printable.quoted(relayed.job().jid()) + " of " + relayed.masterId() + " refused: relayed before");
            return;
        }
        LOG.debug("publications: publishing job {} of {}", relayed.job().jid(), relayed.masterId());
        publish.accept(relayed.job());
    }

    /** WARN, at most once a second: a stream of bad rows costs one line a second. */
    private void refuse(String message) {
        long now = clock.millis();
        if (now - lastRefusalLog >= 1_000) {
            lastRefusalLog = now;
            LOG.warn("publications: {}", message);
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            out.join(TimeUnit.SECONDS.toMillis(5));
            in.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Connection closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                LOG.debug("publications: closing a connection failed: {}", e.getMessage());
            }
        }
        return null;
    }
}
