package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.testing.PgCluster;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database stopped and started again under load (issue 19's proof): two jsalt-master processes of one
 * cluster on one PostgreSQL, four minions signed in to both ({@code master: [m1, m2]}), a job published every
 * 200 ms, on m1 and m2 in turn, before, during and after a stop of PostgreSQL ({@code pg_ctl stop -m fast})
 * of several seconds. Afterwards every return of every job is a row of {@code salt_returns} once, with the
 * value the job asked for; publishing never stopped; both masters said the database was away and caught up.
 */
class DatabaseOutageUnderLoadEndToEndTest {
    private static final List<String> MINIONS = List.of("m-a", "m-b", "m-c", "m-d");
    private static final long PERIOD_MS = 200;
    private static final Duration CALL = Duration.ofSeconds(10);

    private PgCluster pg;
    private String db;
    private Cluster m1;
    private Cluster m2;
    private ScheduledExecutorService publishing;
    private Publisher publisher;

    @AfterEach
    void stop() throws InterruptedException {
        if (publishing != null) {
            publisher.stopAndWait();
            publishing.shutdownNow();
            publishing.awaitTermination(15, TimeUnit.SECONDS);
        }
        for (AutoCloseable c : new AutoCloseable[] {m1, m2, pg}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing the rest matters more
            }
        }
    }

    /** One published job: the master it went to, its jid, the minions the master said it went to, the word echoed. */
    private record Published(int master, String jid, List<String> minions, String word, long atNanos) {}

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // six JVMs and a PostgreSQL on a shared machine
    void everyReturnOfJobsPublishedWhileTheDatabaseStopsAndStartsIsStoredOnce(@TempDir Path tmp) throws Exception {
        startCluster(tmp);
        List<Published> published = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        publishing = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "test-publisher"));
        publisher = new Publisher(published, failures);
        publishing.scheduleAtFixedRate(publisher::publishNext, 0, PERIOD_MS, TimeUnit.MILLISECONDS);

        await().atMost(Duration.ofSeconds(30)).until(() -> published.size() >= 15);
        pg.stopServer();
        long stopped = System.nanoTime();
        int beforeStop = published.size();
        // the database stays away while at least 25 more jobs (about 5 s at this rate) are published
        await().atMost(Duration.ofSeconds(40)).until(() -> published.size() >= beforeStop + 25);
        pg.startServer();
        long started = System.nanoTime();
        int beforeStart = published.size();
        await().atMost(Duration.ofSeconds(40)).until(() -> published.size() >= beforeStart + 15);
        publisher.stopAndWait();

        assertThat(failures).as("every publish was answered, the database away or not").isEmpty();
        assertThat(published).allSatisfy(p -> assertThat(p.minions()).as(p.jid()).containsExactlyInAnyOrderElementsOf(MINIONS));
        assertThat(published.stream().filter(p -> p.atNanos() > stopped && p.atNanos() < started))
                .as("jobs published while the database was away").hasSizeGreaterThanOrEqualTo(20);

        Map<String, String> wordOf = new TreeMap<>();
        published.forEach(p -> wordOf.put(p.jid(), p.word()));
        assertThat(wordOf).as("one jid per job").hasSize(published.size());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(returnRows(wordOf.keySet())).as("returns stored").hasSize(wordOf.size() * MINIONS.size()));
        Map<String, Integer> rows = returnRows(wordOf.keySet());
        List<String> expected = new ArrayList<>();
        wordOf.forEach((jid, word) -> MINIONS.forEach(id -> expected.add(jid + " " + id + " " + word)));
        assertThat(rows.keySet()).as("every minion's return of every job, with the job's own value").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows.values()).as("each stored once").containsOnly(1);
        assertThat(count("SELECT count(*) FROM jids WHERE jid = ANY(?)", wordOf.keySet())).isEqualTo(wordOf.size());
        assertThat(count("SELECT count(*) FROM (SELECT tag FROM salt_events WHERE tag LIKE 'salt/job/%/ret/%'"
                + " AND split_part(tag, '/', 3) = ANY(?) GROUP BY tag HAVING count(*) > 1) twice", wordOf.keySet()))
                .as("no return event written twice").isZero();

        for (Cluster m : List.of(m1, m2)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(Cluster.read(m.masterLog())).contains("is unreachable", "queued on disk", "caught up"));
        }
    }

    private void startCluster(Path tmp) throws Exception {
        pg = PgCluster.start();
        db = pg.createDatabase();
        String[] shared = {"master_job_cache: postgres", "event_return: pgjsonb", "cluster_id: outage",
                "returner.pgjsonb.dsn: \"host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable\""};
        m1 = new Cluster(tmp.resolve("m1"));
        m2 = new Cluster(tmp.resolve("m2"));
        m1.startMaster(shared);
        Files.createDirectories(m2.masterPki(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String file : List.of("master.pem", "master.pub")) {
            Files.copy(m1.masterPki().resolve(file), m2.masterPki().resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
        }
        m2.startMaster(shared);
        String masters = "master: ['127.0.0.1:" + m1.retPort + "', '127.0.0.1:" + m2.retPort + "']";
        for (String id : MINIONS) {
            m1.startMinionOverriding(id, masters, "return_retry_timer: 1", "return_retry_timer_max: 2", "random_reauth_delay: 0");
        }
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(m1.key("-l", "pre").stdout())
                .contains(MINIONS.toArray(String[]::new)));
        assertThat(m1.key("-A", "-y").exitCode()).isZero();
        for (Cluster m : List.of(m1, m2)) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result r = m.jsalt("-t", "5", "*", "test.ping");
                assertThat(r.exitCode()).as(r.toString()).isZero();
                assertThat(r.stdout()).contains(MINIONS.toArray(String[]::new));
            });
        }
    }

    /** "jid id value" to how many rows salt_returns holds for it, for these jids. */
    private Map<String, Integer> returnRows(java.util.Set<String> jids) throws SQLException {
        Map<String, Integer> rows = new TreeMap<>();
        try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(
                "SELECT jid || ' ' || id || ' ' || (full_ret->>'return'), count(*) FROM salt_returns WHERE jid = ANY(?) GROUP BY 1")) {
            s.setArray(1, c.createArrayOf("text", jids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return rows;
    }

    private long count(String sql, java.util.Set<String> jids) throws SQLException {
        try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(sql)) {
            s.setArray(1, c.createArrayOf("text", jids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Publishes {@code test.echo <n>} to every minion, on m1 and m2 in turn, as {@code jsalt --async} does: a
     * clear {@code publish} with the client key each master wrote in its cachedir. Runs on the one publishing
     * thread, which owns both request sockets.
     */
    private final class Publisher {
        private final List<Published> published;
        private final List<String> failures;
        private final Transport transport = Transport.create();
        private RequestClient[] clients;
        private String[] keys;
        private int next;
        private volatile boolean stopping;
        private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

        Publisher(List<Published> published, List<String> failures) {
            this.published = published;
            this.failures = failures;
        }

        /** Stops publishing; the publishing thread closes its sockets at its next turn. */
        void stopAndWait() throws InterruptedException {
            stopping = true;
            assertThat(closed.await(30, TimeUnit.SECONDS)).as("the publisher stopped").isTrue();
        }

        void publishNext() {
            if (stopping) {
                if (closed.getCount() > 0) {
                    close();
                    closed.countDown();
                }
                return;
            }
            int n = next++;
            int master = n % 2;
            String word = "w" + n;
            try {
                if (clients == null) {
                    connect();
                }
                Map<String, Object> load = new LinkedHashMap<>();
                load.put("cmd", "publish");
                load.put("tgt", "*");
                load.put("fun", "test.echo");
                load.put("arg", List.of(word));
                load.put("tgt_type", "glob");
                load.put("ret", "");
                load.put("jid", "");
                load.put("user", System.getProperty("user.name"));
                load.put("kwargs", Map.of());
                load.put("key", keys[master]);
                byte[] reply = clients[master].request(RequestEnvelope.clear(load).encode(), CALL);
                Map<String, Object> body = Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
                List<String> minions = body.get("minions") instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
                published.add(new Published(master, Wire.string(body, "jid"), minions, word, System.nanoTime()));
            } catch (RuntimeException | IOException e) {
                failures.add(word + " on m" + (master + 1) + ": " + e);
            }
        }

        private void connect() throws IOException {
            clients = new RequestClient[2];
            keys = new String[2];
            Cluster[] masters = {m1, m2};
            for (int i = 0; i < 2; i++) {
                MasterConfig config = MasterConfig.load(masters[i].masterConfigDir());
                keys[i] = ClientKey.read(config.cachedir(), System.getProperty("user.name"));
                clients[i] = transport.connectRequestClient("127.0.0.1", config.retPort());
            }
        }

        private void close() {
            if (clients != null) {
                for (RequestClient c : clients) {
                    c.close();
                }
                clients = null;
            }
            transport.close();
        }
    }
}
