package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.testing.PgCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jsalt-master processes of one cluster ({@code cluster_id}, {@code event_return: pgjsonb}) on one
 * PostgreSQL, with a copy of m1's master key on m2 (Salt's multi-master asks for one key pair); the keys, the
 * session key and the grains are the cluster's, so each minion's key is accepted once, on m1. Four minions:
 * hot1 and hot2 with {@code master: [m1, m2]} (signed in to both, under the one session key), fo1 and fo2 with
 * {@code master_type: failover} (on m1). A job on m1 is looked up on m2 and its events are on m2's bus; a job
 * from m2 reaches all four (the failover minions through m1, which publishes m2's jobs too); then m1 is killed
 * -9 in the middle of a job: the CLI waiting on m1 is told so, every return reaches the database exactly once
 * through m2, and the failover minions answer m2. The last test kills m1, so the order is fixed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoMastersOnPostgresEndToEndTest {
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");
    private static final List<String> MINIONS = List.of("hot1", "hot2", "fo1", "fo2");

    private PgCluster pg;
    private String db;
    private Cluster m1;
    private Cluster m2;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        pg = PgCluster.start();
        db = pg.createDatabase();
        String[] shared = {"master_job_cache: postgres", "event_return: pgjsonb", "cluster_id: e2e",
                "returner.pgjsonb.dsn: \"host=127.0.0.1 port=" + pg.port() + " dbname=" + db + " user=" + PgCluster.SUPERUSER
                        + " password=" + pg.password() + " sslmode=disable\""};
        m1 = new Cluster(tmp.resolve("m1"));
        m2 = new Cluster(tmp.resolve("m2"));
        m1.startMaster(shared);
        // Salt's multi-master: every master has the same key pair; the operator copies it before the first start
        Files.createDirectories(m2.masterPki(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String file : List.of("master.pem", "master.pub")) {
            Files.copy(m1.masterPki().resolve(file), m2.masterPki().resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
        }
        m2.startMaster(shared);
        String masters = "master: ['127.0.0.1:" + m1.retPort + "', '127.0.0.1:" + m2.retPort + "']";
        String[] quick = {"return_retry_timer: 1", "return_retry_timer_max: 2", "random_reauth_delay: 0"};
        for (String id : List.of("hot1", "hot2")) {
            m1.startMinionOverriding(id, concat(quick, masters));
        }
        for (String id : List.of("fo1", "fo2")) {
            m1.startMinionOverriding(id, concat(quick, masters, "master_type: failover", "master_alive_interval: 1"));
        }
        // one cluster, one set of keys: accepted once, on m1, for both masters
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(m1.key("-l", "pre").stdout())
                .contains(MINIONS.toArray(String[]::new)));
        assertThat(m1.key("-A", "-y").exitCode()).isZero();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m1.jsalt("-t", "5", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains(MINIONS.toArray(String[]::new));
        });
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m2.jsalt("-t", "5", "-L", "hot1,hot2", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
    }

    private static String[] concat(String[] first, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @AfterAll
    void stop() {
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

    @Test
    @Order(1)
    void aJobOnM1IsLookedUpOnM2AndItsEventsAppearOnM2sBus() throws Exception {
        String jid;
        try (EventTap onM2 = EventTap.connect(m2.masterSockDir(), Duration.ofSeconds(30))) {
            jid = asyncJid(m1.jsalt("--async", "*", "test.echo", "across"));

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result lookup = jsaltRun(m2, "jobs.lookup_jid", jid);
                assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
                for (String id : MINIONS) {
                    assertThat(lookup.stdout()).contains(id + ":\n    across\n");
                }
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(onM2.matching(e -> e.tag().equals("salt/job/" + jid + "/new"))).hasSize(1);
                assertThat(onM2.matching(e -> e.tag().equals("salt/job/" + jid + "/ret/fo1"))).singleElement()
                        .satisfies(s -> assertThat(s.event().data()).containsEntry("return", "across"));
            });
        }
        assertThat(Cluster.read(m2.masterLog())).contains("shared with every master", "relayed to and from every master");
        assertThat(returnsPerMinion(jid)).as("one row per minion, though hot1 and hot2 got the job from both masters")
                .hasSize(4).containsOnly(1);
    }

    @Test
    @Order(2)
    void aJobFromM2ReachesEveryMinionTheFailoverOnesThroughM1() throws Exception {
        Cluster.Result r = m2.jsalt("-t", "10", "*", "test.echo", "from-m2");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        for (String id : MINIONS) {
            assertThat(r.stdout()).contains(id + ":\n    from-m2\n");
        }
        assertThat(Cluster.read(m1.minionLog("fo1"))).doesNotContain("signed in to master 127.0.0.1:" + m2.retPort);
    }

    @Test
    @Order(3)
    void m1KilledMidJobEveryReturnReachesTheDatabaseOnceThroughM2AndTheFailoverMinionsMoveThere() throws Exception {
        try (EventTap onM2 = EventTap.connect(m2.masterSockDir(), Duration.ofSeconds(30))) {
            CompletableFuture<Cluster.Result> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return m1.jsalt("-t", "30", "*", "test.sleep", "4");
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            // the job started: m1's new event, relayed to m2's bus
            java.util.function.Predicate<io.jsalt.transport.event.EventFrame> sleepStarted =
                    e -> e.tag().matches("salt/job/[0-9]{20}/new") && "test.sleep".equals(e.data().get("fun"));
            await().atMost(Duration.ofSeconds(30)).until(() -> !onM2.matching(sleepStarted).isEmpty());
            String jid = onM2.matching(sleepStarted).get(0).event().tag().split("/")[2];
            // every minion runs it (its proc file), and the CLI has its jid: m1 answered the publish before that
            for (String id : MINIONS) {
                Path proc = m1.minionCachedir(id).resolve("proc/" + jid);
                await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(proc));
            }
            m1.killMaster();

            Cluster.Result cli = waiting.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(69);
            assertThat(cli.stderr()).contains("the master went away while waiting for job " + jid, "jobs.lookup_jid " + jid);

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                Cluster.Result lookup = jsaltRun(m2, "jobs.lookup_jid", jid);
                assertThat(lookup.exitCode()).as(lookup.toString()).isZero();
                for (String id : MINIONS) {
                    assertThat(lookup.stdout()).as(() -> id + "'s log:\n" + Cluster.read(m1.minionLog(id))
                            + "\nm2's log:\n" + tail(Cluster.read(m2.masterLog()), 60)).contains(id + ":\n    True\n");
                }
            });
            assertThat(returnsPerMinion(jid)).as("one row per minion").hasSize(4).containsOnly(1);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(onM2.matching(
                    e -> e.tag().startsWith("salt/job/" + jid + "/ret/"))).hasSize(4));
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = m2.jsalt("-t", "5", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains(MINIONS.toArray(String[]::new));
        });
        assertThat(Cluster.read(m1.minionLog("fo1"))).contains("failing over", "signed in to master 127.0.0.1:" + m2.retPort);
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    private static String asyncJid(Cluster.Result async) {
        assertThat(async.exitCode()).as(async.toString()).isZero();
        Matcher m = JID.matcher(async.stdout());
        assertThat(m.find()).as(async.toString()).isTrue();
        return m.group(1);
    }

    /** How many rows salt_returns holds for each minion that answered {@code jid}. */
    private List<Integer> returnsPerMinion(String jid) throws Exception {
        List<Integer> counts = new ArrayList<>();
        try (Connection c = pg.connect(db); PreparedStatement s = c.prepareStatement(
                "SELECT id, count(*) FROM salt_returns WHERE jid = ? GROUP BY id ORDER BY id")) {
            s.setString(1, jid);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.add(rs.getInt(2));
                }
            }
        }
        return counts;
    }

    private static Cluster.Result jsaltRun(Cluster on, String... args) throws IOException, InterruptedException {
        String[] full = new String[args.length + 2];
        full[0] = "-c";
        full[1] = on.masterConfigDir().toString();
        System.arraycopy(args, 0, full, 2, args.length);
        return on.run("io.jsalt.cli.run.RunCommand", full);
    }
}
