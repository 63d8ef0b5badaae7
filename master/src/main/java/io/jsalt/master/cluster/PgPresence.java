package io.jsalt.master.cluster;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which minions each master of a cluster sees present, and when a master last saw each, in
 * {@code jsalt_presence (id, master_id, seen)}: every maintenance round a master writes the minions present on
 * it now (their {@code seen} becomes now) and drops those it no longer sees, so {@code manage.present} on any
 * master answers for the whole cluster, and {@code seen} tells an operator when a minion was last connected
 * anywhere. A master that stops cleanly drops its rows; one that dies leaves rows that stop counting once
 * they are older than the freshness asked for (three maintenance rounds).
 *
 * <p>Each row carries the cluster MAC ({@link ClusterSeal}) over the id, the master id and {@code seen}, which
 * the master writes from its own clock (so keep the masters' clocks in step, as the relay of publications
 * asks): a row made up, or an old one made fresh again, by a database writer without the master key does not
 * count (WARN at most once a minute); nor does a sealed row older than one this master read for the same minion
 * and master before (an earlier row copied back over a newer one).
 */
public final class PgPresence {
    private static final Logger LOG = LoggerFactory.getLogger(PgPresence.class);
    private static final String LABEL = "jsalt presence v1";
    private static final long REFUSAL_LOG_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final ClusterDb db;
    private final String masterId;
    private final ClusterSeal seal;
    private final AtomicLong lastRefusalLog = new AtomicLong(System.nanoTime() - REFUSAL_LOG_NANOS);
    /**
     * The newest {@code seen} (micros) this master read in a sealed row, by (id, master id): a master only ever
     * writes its rows forward, so a sealed row older than that is an earlier row put back (a replay). Entries
     * older than ten times the freshness asked for are dropped: the query no longer returns such rows.
     */
    private final Map<SeenBy, Long> newestSeen = new ConcurrentHashMap<>();

    private record SeenBy(String id, String masterId) {}

    PgPresence(ClusterDb db, String masterId, ClusterSeal seal) {
        this.db = db;
        this.masterId = masterId;
        this.seal = seal;
    }

    /** Writes the minions present on this master now; an outage costs a WARN (the next round writes again). */
    public void publish(Set<String> presentHere) {
        publish(presentHere, Instant.now());
    }

    /** As {@link #publish(Set)}, seen at {@code now} (a test makes a master that died long ago with it). */
    void publish(Set<String> presentHere, Instant now) {
        Instant seen = now.truncatedTo(ChronoUnit.MICROS); // what timestamptz keeps
        String[] present = presentHere.toArray(String[]::new);
        String[] macs = new String[present.length];
        for (int i = 0; i < present.length; i++) {
            macs[i] = HexFormat.of().formatHex(seal.mac(LABEL, present[i], masterId, micros(seen)));
        }
        try {
            db.inTransaction(c -> {
                Array ids = c.createArrayOf("varchar", present);
                try (PreparedStatement gone = c.prepareStatement("DELETE FROM jsalt_presence WHERE master_id = ? AND NOT (id = ANY(?))")) {
                    gone.setString(1, masterId);
                    gone.setArray(2, ids);
                    gone.executeUpdate();
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO jsalt_presence (id, master_id, seen, mac)"
                        + " SELECT unnest(?::varchar[]), ?, ?, decode(unnest(?::text[]), 'hex')"
                        + " ON CONFLICT (id, master_id) DO UPDATE SET seen = EXCLUDED.seen, mac = EXCLUDED.mac")) {
                    s.setArray(1, ids);
                    s.setString(2, masterId);
                    s.setObject(3, OffsetDateTime.ofInstant(seen, ZoneOffset.UTC));
                    s.setArray(4, c.createArrayOf("text", macs));
                    s.executeUpdate();
                }
                return null;
            });
        } catch (ClusterException e) {
            LOG.warn("cluster: this master's minions not shared as present this round: {}", e.getMessage());
        }
    }

    /**
     * The minions other masters saw present within {@code fresh}; while the database is away, none (the
     * caller answers with this master's own, and says so).
     */
    public Set<String> elsewhere(Duration fresh) {
        try {
            return db.read(c -> {
                Set<String> out = new TreeSet<>();
                int refused = 0;
                int replayed = 0;
                try (PreparedStatement s = c.prepareStatement("SELECT id, master_id, seen, mac FROM jsalt_presence WHERE master_id <> ?"
                        + " AND seen > now() - make_interval(secs => ?)")) {
                    s.setString(1, masterId);
                    s.setLong(2, Math.max(1, fresh.toSeconds()));
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            String id = rs.getString(1);
                            long seen = micros(rs.getObject(3, OffsetDateTime.class).toInstant());
                            if (!seal.valid(rs.getBytes(4), LABEL, id, rs.getString(2), seen)) {
                                refused++;
                            } else if (newestSeen.merge(new SeenBy(id, rs.getString(2)), seen, Math::max) > seen) {
                                replayed++;
                            } else {
                                out.add(id);
                            }
                        }
                    }
                }
                if (refused > 0) {
                    warnRefused(refused, "not sealed by a master of this cluster: not counted as present"
                            + " (written by something other than a master)");
                }
                if (replayed > 0) {
                    warnRefused(replayed, "older than one this master read there before: not counted as present"
                            + " (an earlier row put back by something other than a master)");
                }
                long oldest = micros(Instant.now().minus(fresh.multipliedBy(10)));
                newestSeen.values().removeIf(t -> t < oldest);
                return out;
            });
        } catch (ClusterException e) {
            LOG.warn("cluster: presence answered with this master's minions only: {}", e.getMessage());
            return Set.of();
        }
    }

    private void warnRefused(int rows, String why) {
        long now = System.nanoTime();
        long last = lastRefusalLog.get();
        if (now - last >= REFUSAL_LOG_NANOS && lastRefusalLog.compareAndSet(last, now)) {
            LOG.warn("cluster: {} row(s) of jsalt_presence {}", rows, why);
        }
    }

    private static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }

    /** A clean stop: this master's minions no longer count as present through it. */
    void withdraw() {
        try {
            db.inTransaction(c -> {
                try (PreparedStatement s = c.prepareStatement("DELETE FROM jsalt_presence WHERE master_id = ?")) {
                    s.setString(1, masterId);
                    s.executeUpdate();
                }
                return null;
            });
        } catch (ClusterException e) {
            LOG.debug("cluster: presence rows stay until they are stale: {}", e.getMessage());
        }
    }
}
