package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.pg.PostgresJobCache;
import io.jsalt.master.testing.PgCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A master whose database goes away: it keeps accepting, queues on disk, and writes everything once it is back. */
class PostgresOutageTest {
    static PgCluster cluster;

    @TempDir
    Path cachedir;
    String db;
    JobCache cache;

    @BeforeAll
    static void startCluster() {
        cluster = PgCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void closeCache() {
        if (cache != null) {
            cache.close();
        }
        cluster.startServer(); // a test that failed midway may have left it stopped
    }

    private PostgresJobCache open(long spoolMaxBytes) {
        return PostgresJobCache.open(new PostgresSettings("127.0.0.1", cluster.port(), db, PgCluster.SUPERUSER,
                cluster.password(), Map.of(), spoolMaxBytes, false), cachedir);
    }

    @Test
    void returnsAcceptedWhileTheDatabaseIsStoppedAreAllWrittenOnceItIsBack() throws Exception {
        db = cluster.createDatabase();
        cache = open(64L * 1_048_576);
        String jid = "20260101120000000001";
        cache.saveJob(JobCacheContract.job(jid, Instant.now()));
        AtomicInteger accepted = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger refused = new AtomicInteger();
        Thread writer = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
                try {
                    if (cache.saveReturn(new JobReturn(jid, "minion" + i, Map.of("n", (long) i), 0, true, Instant.now()))) {
                        accepted.incrementAndGet();
                    }
                } catch (JobCacheException e) {
                    refused.incrementAndGet();
                }
            }
        }, "test-writer");
        writer.start();
        try {
            await().atMost(Duration.ofMinutes(1)).until(() -> accepted.get() >= 200);
            cluster.stopServer();
            int atStop = accepted.get();
            await().atMost(Duration.ofMinutes(1)).until(() -> accepted.get() >= atStop + 500);
            // served while away: what was queued is answered from the spool (what the database holds is not reachable)
            assertThat(cache.returns(jid)).hasSizeGreaterThanOrEqualTo(500);
            assertThat(spooled()).isNotEmpty();
            cluster.startServer();
            int atStart = accepted.get();
            await().atMost(Duration.ofMinutes(1)).until(() -> accepted.get() >= atStart + 200);
        } finally {
            stop.set(true);
            writer.join(60_000);
        }

        assertThat(refused).hasValue(0);
        await().atMost(Duration.ofMinutes(2)).until(() -> spooled().isEmpty());
        assertThat(count("SELECT count(*) FROM salt_returns WHERE jid = '" + jid + "'")).isEqualTo(accepted.get());
        assertThat(count("SELECT count(DISTINCT id) FROM salt_returns")).isEqualTo(accepted.get());
        assertThat(cache.returns(jid)).hasSize(accepted.get());
    }

    @Test
    void aMasterStartedWhileTheDatabaseIsAwayQueuesAndWritesWhatItQueuedAfterARestart() throws Exception {
        db = cluster.createDatabase();
        cache = open(64L * 1_048_576); // creates the schema
        cache.close();
        cluster.stopServer();

        cache = open(64L * 1_048_576);
        cache.saveJob(JobCacheContract.job("20260101120000000002", Instant.now()));
        assertThat(cache.saveReturn(JobCacheContract.ret("20260101120000000002", "web1", "queued"))).isTrue();
        assertThat(cache.job("20260101120000000002")).isPresent();
        cache.close(); // the master stops before the database is back: the spool stays on disk
        assertThat(spooled()).hasSize(2);

        cluster.startServer();
        cache = open(64L * 1_048_576);

        await().atMost(Duration.ofMinutes(1)).until(() -> spooled().isEmpty());
        assertThat(count("SELECT count(*) FROM jids WHERE jid = '20260101120000000002'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM salt_returns WHERE jid = '20260101120000000002' AND fun = 'test.ping'")).isEqualTo(1);
    }

    @Test
    void aFullSpoolRefusesTheReturnWithItsOwnExceptionAndKeepsWhatItHolds() throws Exception {
        db = cluster.createDatabase();
        cache = open(1_048_576);
        cluster.stopServer();
        String big = "x".repeat(200_000);
        int accepted = 0;
        JobCacheException refusal = null;
        for (int i = 0; i < 20 && refusal == null; i++) {
            try {
                cache.saveReturn(JobCacheContract.ret("20260101120000000003", "web" + i, big));
                accepted++;
            } catch (JobCacheException e) {
                refusal = e;
            }
        }
        assertThat(refusal).isNotNull().hasMessageContaining("full").hasMessageContaining("master_job_cache_spool_max_bytes");
        assertThat(accepted).isBetween(1, 5);

        cluster.startServer();

        await().atMost(Duration.ofMinutes(1)).until(() -> spooled().isEmpty());
        assertThat(count("SELECT count(*) FROM salt_returns")).isEqualTo(accepted);
        assertThat(cache.saveReturn(JobCacheContract.ret("20260101120000000003", "after", true))).isTrue();
    }

    @Test
    void theSpoolIsPrivateToTheMastersUser() throws Exception {
        db = cluster.createDatabase();
        cache = open(1_048_576);
        cluster.stopServer();
        cache.saveReturn(JobCacheContract.ret("20260101120000000004", "web1", "secret output"));

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(cachedir.resolve("pg-spool"))))
                .isEqualTo("rwx------");
        assertThat(spooled()).singleElement().satisfies(p -> assertThat(java.nio.file.attribute.PosixFilePermissions
                .toString(Files.getPosixFilePermissions(p))).isEqualTo("rw-------"));
        cluster.startServer();
    }

    @Test
    void readsWithNothingQueuedFailClearlyWhileTheDatabaseIsAway() {
        db = cluster.createDatabase();
        cache = open(1_048_576);
        cluster.stopServer();

        assertThatThrownBy(() -> cache.returns("20260101120000000005")).isInstanceOf(JobCacheException.class)
                .hasMessageContaining("unreachable");
        cluster.startServer();
        assertThat(cache.returns("20260101120000000005")).isEmpty();
    }

    @Test
    void aJobThisMasterPublishedBeforeTheOutageIsStillKnownSoItsReturnsAreChecked() {
        db = cluster.createDatabase();
        cache = open(1_048_576);
        Job job = JobCacheContract.job("20260101120000000006", Instant.parse("2026-01-01T12:00:00Z"));
        cache.saveJob(job);
        cluster.stopServer();
        cache.saveReturn(JobCacheContract.ret("20260101120000000006", "web1", true)); // the writer notices the outage

        assertThat(cache.job("20260101120000000006")).contains(job);
        assertThatThrownBy(() -> cache.job("20260101120000000007")).isInstanceOf(JobCacheException.class)
                .hasMessageContaining("unreachable");
        cluster.startServer();
    }

    @Test
    void aQueuedRecordTheDatabaseRefusesForGoodIsSetAsideLoudlyAndTheRestIsWritten() throws Exception {
        db = cluster.createDatabase();
        cache = open(64L * 1_048_576);
        // stands for any value the database refuses for good (a constraint an operator added, a limit)
        try (Connection c = cluster.connect(db); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE salt_returns ADD CONSTRAINT no_poison CHECK (id <> 'poison')");
        }
        String jid = "20260101120000000009";
        cluster.stopServer();
        cache.saveJob(JobCacheContract.job(jid, Instant.now()));
        for (String id : new String[] {"before", "poison", "after1", "after2"}) {
            cache.saveReturn(JobCacheContract.ret(jid, id, true));
        }
        assertThat(spooled()).hasSize(5);
        cluster.startServer();

        await().atMost(Duration.ofMinutes(1)).until(() -> spooled().isEmpty());
        assertThat(count("SELECT count(*) FROM salt_returns WHERE jid = '" + jid + "'")).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM salt_returns WHERE id = 'poison'")).isZero();
        Path quarantine = cachedir.resolve("pg-quarantine");
        try (Stream<Path> aside = Files.list(quarantine)) {
            List<String> names = aside.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).hasSize(2).anySatisfy(n -> assertThat(n).endsWith(".ret"))
                    .anySatisfy(n -> assertThat(n).endsWith(".ret.why"));
            Path why = quarantine.resolve(names.stream().filter(n -> n.endsWith(".why")).findFirst().orElseThrow());
            assertThat(Files.readString(why)).contains("no_poison");
        }
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(quarantine)))
                .isEqualTo("rwx------");
        assertThat(cache.returns(jid)).extracting(JobReturn::id).containsExactlyInAnyOrder("before", "after1", "after2");
    }

    private List<Path> spooled() throws Exception {
        Path dir = cachedir.resolve("pg-spool");
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    private int count(String sql) throws SQLException {
        try (Connection c = cluster.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
