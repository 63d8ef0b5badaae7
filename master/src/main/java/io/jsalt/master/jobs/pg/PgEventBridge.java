package io.jsalt.master.jobs.pg;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.cluster.ClusterSeal;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.events.EventListener;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.event.EventFrame;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code event_return: pgjsonb}: the master's events go to Salt's {@code salt_events} table and, through
 * PostgreSQL's LISTEN/NOTIFY, to the bus of every other master on the database. Two threads, each owning
 * its connection: {@code jsalt-events-pg-out} writes what this master fires (one transaction per batch,
 * each row announced with {@code pg_notify}, delivered at commit and in commit order, so per master in the
 * order fired); {@code jsalt-events-pg-in} listens, reads the announced rows of other masters by id, and
 * fires them here. LISTEN/NOTIFY because the database is already shared and it delivers in commit order
 * with no polling; a row is read by its id, never by "ids above the last one seen", which a transaction
 * committing late would make skip. An event relayed here is not written again (no echo between masters).
 * While the database is away, events are dropped with a WARN: the job cache's spool keeps jobs and
 * returns, which matter; events are a live view.
 *
 * <p>Each row this master writes carries the cluster MAC ({@link ClusterSeal}, keyed by the master key every
 * master of the database holds) over its tag, data and master id, in {@code salt_events.mac}; a row whose MAC
 * does not fit (written by anything but a master holding that key) is not fired here, with a WARN at most once a
 * minute. HMAC, not the master key's RSA signature: events may be thousands a second.
 */
public final class PgEventBridge implements EventListener, AutoCloseable {
    static final String CHANNEL = "jsalt_events";
    private static final String LABEL = "jsalt relayed event v1";
    private static final long REFUSAL_LOG_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** The key a relayed event carries: the id of the master that fired it. */
    public static final String RELAYED_FROM = "master_id";
    private static final Logger LOG = LoggerFactory.getLogger(PgEventBridge.class);
    private static final int QUEUE = 10_000;
    private static final int BATCH = 500;
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int CATCH_UP_PAGE = 1_000;
    private static final long CATCH_UP_SLACK_SECONDS = 60;

    private final PgConnector connector;
    private final String masterId;
    private final EventBus bus;
    private final ClusterSeal seal;
    private final BlockingQueue<EventFrame> outgoing = new ArrayBlockingQueue<>(QUEUE);
    /** Set while this bridge fires a relayed event, so that its own listener does not write it back. */
    private final ThreadLocal<Boolean> relaying = ThreadLocal.withInitial(() -> false);
    private final Thread out;
    private final Thread in;
    private volatile boolean open = true;
    private long dropped;
    /** The listening thread's: per source master, the id of the last event relayed from it. */
    private final Map<String, Long> lastRelayed = new java.util.HashMap<>();
    /** The listening thread's: when the database last answered it (System.nanoTime). */
    private long lastHeard = System.nanoTime();
    /** The listening thread's: unsealed rows refused since the last WARN, and when that WARN was. */
    private long refused;
    private long lastRefusalLog = System.nanoTime() - REFUSAL_LOG_NANOS;

    private PgEventBridge(PostgresSettings settings, String masterId, EventBus bus, ClusterSeal seal) {
        this.connector = new PgConnector(settings);
        this.masterId = masterId;
        this.bus = bus;
        this.seal = seal;
        this.out = new Thread(this::writeLoop, "jsalt-events-pg-out");
        this.in = new Thread(this::listenLoop, "jsalt-events-pg-in");
        out.setDaemon(true);
        in.setDaemon(true);
    }

    /**
     * Starts both threads and listens on {@code bus}; {@code masterId} names this master in {@code salt_events.master_id};
     * {@code seal} (from the master key) seals the rows written and checks the rows relayed.
     */
    public static PgEventBridge start(PostgresSettings settings, String masterId, EventBus bus, ClusterSeal seal) {
        PgEventBridge bridge = new PgEventBridge(settings, masterId, bus, seal);
        bridge.out.start();
        bridge.in.start();
        bus.addListener(bridge);
        LOG.info("events: written to salt_events and shared with every master on {} as {}", bridge.connector.describe(), masterId);
        return bridge;
    }

    @Override
    public void onEvent(EventFrame event) {
        if (relaying.get()) {
            return;
        }
        if (!outgoing.offer(event)) {
            synchronized (this) {
                if (dropped++ % 1_000 == 0) {
                    LOG.warn("events: {} dropped so far, the database does not keep up (or is away)", dropped);
                }
            }
        }
    }

    private void writeLoop() {
        Connection c = null;
        List<EventFrame> batch = new ArrayList<>();
        while (open) {
            try {
                EventFrame first = outgoing.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                outgoing.drainTo(batch, BATCH - 1);
                if (c == null) {
                    c = connector.open();
                }
                write(c, batch);
            } catch (InterruptedException e) {
                return;
            } catch (SQLException e) {
                LOG.warn("events: {} not written to {}: {}", batch.size(), connector.describe(), e.getMessage());
                c = closeQuietly(c);
                LockSupport.parkNanos(RETRY_NANOS);
            } finally {
                batch.clear();
            }
        }
        closeQuietly(c);
    }

    private void write(Connection c, List<EventFrame> batch) throws SQLException {
        PgTransaction.run(c, tx -> {
            long[] ids = nextIds(tx, batch.size());
            try (PreparedStatement s = tx.prepareStatement("INSERT INTO salt_events (id, tag, data, master_id, mac) VALUES (?, ?, ?::jsonb, ?, ?)"
                    + " RETURNING id, pg_notify('" + CHANNEL + "', id || ':' || master_id)")) {
                for (int i = 0; i < batch.size(); i++) {
                    EventFrame e = batch.get(i);
                    String tag = e.tag().length() > 255 ? e.tag().substring(0, 255) : e.tag();
                    String json = PgJson.write(e.data());
                    s.setLong(1, ids[i]);
                    s.setString(2, tag);
                    s.setString(3, json);
                    s.setString(4, masterId);
                    // sealed as the other masters will read it back (the data as read from the JSON written), with
                    // its id: a copy of a sealed row under a higher id fails the seal, so it can neither fire again
                    // nor move this master's last relayed id past the real rows that follow
                    s.setBytes(5, seal.mac(LABEL, ids[i], tag, PgJson.read(json), masterId));
                    s.executeQuery().close();
                }
            }
            return null;
        });
    }

    /** {@code n} ids from salt_events' own sequence, in one round trip. */
    private static long[] nextIds(Connection c, int n) throws SQLException {
        long[] ids = new long[n];
        try (PreparedStatement s = c.prepareStatement("SELECT nextval('seq_salt_events_id') FROM generate_series(1, ?)")) {
            s.setInt(1, n);
            try (ResultSet rs = s.executeQuery()) {
                for (int i = 0; i < n && rs.next(); i++) {
                    ids[i] = rs.getLong(1);
                }
            }
        }
        return ids;
    }

    private void listenLoop() {
        Connection c = null;
        boolean lost = false;
        while (open) {
            try {
                if (c == null) {
                    c = connector.open();
                    try (Statement s = c.createStatement()) {
                        s.execute("LISTEN " + CHANNEL);
                    }
                    if (lost) {
                        catchUp(c); // after LISTEN: what commits from now on is announced, what committed before is read
                    }
                    lost = false;
                }
                PGNotification[] notes = c.unwrap(PGConnection.class).getNotifications(500);
                lastHeard = System.nanoTime();
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
                    relay(c, ids);
                }
            } catch (SQLException | RuntimeException e) {
                if (open) {
                    LOG.warn("events: not listening to other masters on {}: {}", connector.describe(), e.getMessage());
                    c = closeQuietly(c);
                    lost = true;
                    LockSupport.parkNanos(RETRY_NANOS);
                }
            }
        }
        closeQuietly(c);
    }

    /**
     * After the listening connection was lost: the other masters' events committed meanwhile, read from
     * {@code salt_events} by id, each source's after the last one relayed from it (each master writes its
     * events from one thread, one transaction at a time, so its ids grow in the order it fired them). The
     * rows looked at are those written since shortly before this master last heard from the database (by the
     * database's clock, with a minute of slack), so a master that is gone long ago costs no scan.
     */
    private void catchUp(Connection c) throws SQLException {
        long since = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lastHeard) + CATCH_UP_SLACK_SECONDS;
        long after = 0;
        long relayed = 0;
        while (true) {
            try (PreparedStatement s = c.prepareStatement("SELECT id, tag, data, master_id, mac FROM salt_events WHERE master_id <> ?"
                    + " AND alter_time >= now() - make_interval(secs => ?) AND id > ? ORDER BY id LIMIT " + CATCH_UP_PAGE)) {
                s.setString(1, masterId);
                s.setLong(2, since);
                s.setLong(3, after);
                int rows = 0;
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                        after = rs.getLong(1);
                        if (fireOnce(after, rs.getString(2), rs.getString(3), rs.getString(4), rs.getBytes(5))) {
                            relayed++;
                        }
                    }
                }
                if (rows < CATCH_UP_PAGE) {
                    break;
                }
            }
        }
        LOG.warn("events: listening to other masters again on {}; {} events fired on them meanwhile relayed from salt_events",
                connector.describe(), relayed);
    }

    private void relay(Connection c, List<Long> ids) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id, tag, data, master_id, mac FROM salt_events WHERE id = ANY(?) ORDER BY id")) {
            Array array = c.createArrayOf("bigint", ids.toArray());
            s.setArray(1, array);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    fireOnce(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBytes(5));
                }
            }
        }
    }

    /**
     * Fires a row of another master unless it was relayed already (a catch-up and the notifications that
     * follow it may name the same row): per source, only ids above the last relayed. A row whose seal does not
     * fit is dropped before it counts as relayed, so a forged row with a high id, or a sealed row copied under
     * one (the id is sealed too), cannot hide the real ones after it.
     */
    private boolean fireOnce(long id, String tag, String json, String source, byte[] mac) {
        Long last = lastRelayed.get(source);
        if (last != null && id <= last) {
            return false;
        }
        Object parsed;
        try {
            parsed = PgJson.read(json);
        } catch (RuntimeException e) {
            // no master writes what does not read back (e.g. a "$binary" that is no base64): a forged row, which
            // must not stop the listener (its catch-up would read the row again, and stop again)
            refused(id, source);
            return false;
        }
        if (!seal.valid(mac, LABEL, id, tag, parsed, source)) {
            refused(id, source);
            return false;
        }
        lastRelayed.put(source, id);
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        if (parsed instanceof Map<?, ?> m) {
            m.forEach((k, v) -> data.put(String.valueOf(k), v));
        } else {
            data.put("data", parsed);
        }
        // which master fired it, as salt_events names it; components acting on this master's own
        // minions (late sign-ins) leave such events alone
        data.putIfAbsent(RELAYED_FROM, source);
        relaying.set(true);
        try {
            bus.fire(tag, data);
        } finally {
            relaying.set(false);
        }
        return true;
    }

    private void refused(long id, String source) {
        refused++;
        long now = System.nanoTime();
        if (now - lastRefusalLog >= REFUSAL_LOG_NANOS) {
            LOG.warn("events: {} row(s) of salt_events not sealed by a master of this cluster dropped, not fired (the last:"
                    + " id {}, master_id {}); something other than a master writes to the database", refused, id,
                    Printable.quoted(source));
            refused = 0;
            lastRefusalLog = now;
        }
    }

    @Override
    public void close() {
        bus.removeListener(this);
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
                LOG.debug("events: closing a connection failed: {}", e.getMessage());
            }
        }
        return null;
    }
}
