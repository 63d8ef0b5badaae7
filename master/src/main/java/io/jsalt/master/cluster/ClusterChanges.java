package io.jsalt.master.cluster;

import io.jsalt.master.jobs.pg.PgConnector;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears what the other masters of the cluster change, through PostgreSQL's LISTEN/NOTIFY: one thread
 * ({@code jsalt-cluster-pg-in}, owner of its connection) listens on each follower's channel and hands it the
 * payload of each notification. A notification is delivered at commit, so the change is readable when it
 * arrives. While the connection is down nothing is heard; so once LISTEN is in place again (and the first
 * time) every follower reads its whole state again ({@link Follower#resync}): what changed meanwhile is then
 * known, and what changes from then on is heard.
 */
public final class ClusterChanges implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterChanges.class);
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Shared state that follows the database. Called on the listening thread only. */
    public interface Follower {
        /** A change to one item, named by the notification's payload. */
        void changed(String payload);

        /** Everything may have changed: read it all again. */
        void resync();
    }

    private final PgConnector connector;
    private final Map<String, Follower> followers = new ConcurrentHashMap<>();
    private final Thread thread;
    private final CountDownLatch listening = new CountDownLatch(1);
    private volatile boolean open = true;
    private volatile long reconnects;

    public ClusterChanges(PgConnector connector) {
        this.connector = connector;
        this.thread = new Thread(this::loop, "jsalt-cluster-pg-in");
        thread.setDaemon(true);
    }

    /** Registers {@code follower} on {@code channel}; before {@link #start} only. */
    public ClusterChanges follow(String channel, Follower follower) {
        if (!channel.matches("[a-z_]+")) {
            throw new IllegalArgumentException("channel names are lower-case words: " + channel);
        }
        followers.put(channel, follower);
        return this;
    }

    /** Starts listening; returns once LISTEN is in place, or after {@code wait} if the database is away. */
    public void start(long waitMillis) {
        thread.start();
        try {
            listening.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many times the listening connection was made again after a loss: for tests and diagnostics. */
    public long reconnects() {
        return reconnects;
    }

    private void loop() {
        Connection c = null;
        boolean lost = false;
        while (open) {
            try {
                if (c == null) {
                    c = connector.open();
                    try (Statement s = c.createStatement()) {
                        for (String channel : followers.keySet()) {
                            s.execute("LISTEN " + channel);
                        }
                    }
                    if (lost) {
                        reconnects++;
                        LOG.warn("cluster: listening to the other masters again on {}; reading the shared state again",
                                connector.describe());
                    }
                    for (Follower f : followers.values()) {
                        f.resync(); // a failure reaches the catch below: the connection is dropped and made again
                    }
                    listening.countDown();
                }
                PGNotification[] notes = c.unwrap(PGConnection.class).getNotifications(500);
                if (notes != null) {
                    for (PGNotification n : notes) {
                        Follower f = followers.get(n.getName());
                        if (f != null) {
                            f.changed(n.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (open) {
                    if (!lost || c != null) {
                        LOG.error("cluster: not hearing the other masters' changes on {} ({}); retrying every second",
                                connector.describe(), e.getMessage());
                    }
                    lost = true;
                    c = close(c);
                    LockSupport.parkNanos(RETRY_NANOS);
                }
            }
        }
        close(c);
    }

    private static Connection close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                LOG.debug("cluster: closing the listening connection failed: {}", e.getMessage());
            }
        }
        return null;
    }

    @Override
    public void close() {
        open = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
