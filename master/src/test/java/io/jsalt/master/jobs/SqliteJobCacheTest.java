package io.jsalt.master.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteJobCacheTest extends JobCacheContract {
    @TempDir
    Path cachedir;

    @Override
    JobCache newCache() {
        return SqliteJobCache.open(cachedir);
    }

    @Test
    void aJobAndItsReturnsSurviveCloseAndReopenWithTheirValues() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("pid", 4242L);
        value.put("stdout", "hello\nworld");
        value.put("load", 0.25);
        value.put("ok", true);
        value.put("none", null);
        value.put("raw", new byte[] {0, (byte) 0xff});
        value.put("list", List.of("a", 1L, List.of()));
        Instant started = Instant.parse("2026-01-01T12:00:00.123456789Z");
        Job job = new Job("20260101120000123456", "cmd.run", List.of("ls -l", Map.of("cwd", "/tmp")),
                List.of("web1", "web2"), "list", "root", List.of("web1", "web2"), started);
        cache.saveJob(job);
        assertThat(cache.saveReturn(new JobReturn(job.jid(), "web1", value, 3, false, started.plusSeconds(1)))).isTrue();
        cache.close();

        cache = SqliteJobCache.open(cachedir);

        assertThat(cache.job(job.jid())).contains(job);
        List<JobReturn> returns = cache.returns(job.jid());
        assertThat(returns).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("web1");
            assertThat(r.retcode()).isEqualTo(3);
            assertThat(r.success()).isFalse();
            assertThat(r.received()).isEqualTo(started.plusSeconds(1));
            assertThat(r.ret()).usingRecursiveComparison().isEqualTo(value);
        });
        assertThat(cache.saveReturn(new JobReturn(job.jid(), "web1", "replayed", 0, true, started))).isFalse();
    }

    @Test
    void aFileFromBeforeReturnsWereMarkedVerifiedGainsTheColumnWithItsReturnsVerified() throws Exception {
        cache.close();
        Files.delete(cachedir.resolve("jobs.sqlite"));
        try (var db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cachedir.resolve("jobs.sqlite"));
             var s = db.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            s.execute("INSERT INTO schema_version (version) VALUES (1)");
            s.execute("CREATE TABLE jobs (jid TEXT PRIMARY KEY, fun TEXT, arg BLOB, tgt BLOB, tgt_type TEXT,"
                    + " user TEXT, minions BLOB, started_ns INTEGER NOT NULL)");
            s.execute("CREATE TABLE returns (seq INTEGER PRIMARY KEY, jid TEXT NOT NULL, id TEXT NOT NULL, ret BLOB,"
                    + " retcode INTEGER NOT NULL, success INTEGER NOT NULL, received_ns INTEGER NOT NULL, UNIQUE (jid, id))");
            s.execute("INSERT INTO returns (jid, id, ret, retcode, success, received_ns)"
                    + " VALUES ('20260101120000000001', 'web1', NULL, 0, 1, 0)");
        }

        cache = SqliteJobCache.open(cachedir);

        assertThat(cache.returns("20260101120000000001")).singleElement().extracting(JobReturn::verified).isEqualTo(true);
        assertThat(cache.saveReturn(new JobReturn("20260101120000000001", "web2", true, 0, true, Instant.now(), false))).isTrue();
        assertThat(cache.returns("20260101120000000001")).extracting(JobReturn::verified).containsExactly(true, false);
    }

    @Test
    void theStoreItselfRefusesASecondReturnForTheSameJidAndId() throws Exception {
        String jid = "20260101120000000001";
        assertThat(cache.saveReturn(ret(jid, "web1", "first"))).isTrue();
        cache.close();
        try (var db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cachedir.resolve("jobs.sqlite"));
             var s = db.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("INSERT INTO returns"
                    + " (jid, id, ret, retcode, success, received_ns) VALUES ('" + jid + "', 'web1', NULL, 0, 1, 0)"))
                    .hasMessageContaining("UNIQUE");
        }
        cache = SqliteJobCache.open(cachedir);
        assertThat(cache.returns(jid)).extracting(JobReturn::ret).containsExactly("first");
    }

    @Test
    void pruneDeletesOldJobsReturnsAndOldOrphanReturnsButKeepsRecentOnes() {
        cache.saveJob(job("20260101110000000001", T0.minusSeconds(3600)));
        cache.saveReturn(new JobReturn("20260101110000000001", "web1", 1L, 0, true, T0)); // late, goes with its job
        cache.saveJob(job("20260101120000000001", T0));
        cache.saveReturn(ret("20260101120000000001", "web1", 2L));
        cache.saveReturn(new JobReturn("20260101100000000009", "web9", 3L, 0, true, T0.minusSeconds(7200)));
        cache.saveReturn(new JobReturn("20260101120000000009", "web9", 4L, 0, true, T0));

        cache.prune(T0.minusSeconds(60));
        cache.close();
        cache = SqliteJobCache.open(cachedir);

        assertThat(cache.job("20260101110000000001")).isEmpty();
        assertThat(cache.returns("20260101110000000001")).isEmpty();
        assertThat(cache.returns("20260101100000000009")).isEmpty();
        assertThat(cache.job("20260101120000000001")).isPresent();
        assertThat(cache.returns("20260101120000000001")).extracting(JobReturn::ret).containsExactly(2L);
        assertThat(cache.returns("20260101120000000009")).extracting(JobReturn::ret).containsExactly(4L);
    }

    @Test
    void eightThreadsSavingReturnsAtOnceStoreEachOnceWithoutBusyErrors() throws Exception {
        String jid = "20260101120000000001";
        int threads = 8;
        int minions = 250;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> accepted = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int offset = t;
                accepted.add(pool.submit(() -> {
                    go.await();
                    int mine = 0;
                    // every thread saves every minion, each starting elsewhere: 7 of 8 saves are duplicates
                    for (int i = 0; i < minions; i++) {
                        String id = "web" + ((i + offset * 31) % minions);
                        if (cache.saveReturn(ret(jid, id, Map.of("i", (long) i)))) {
                            mine++;
                        }
                        cache.saveJob(job("2026010112000000" + String.format("%04d", offset), T0));
                    }
                    return mine;
                }));
            }
            go.countDown();
            int total = 0;
            for (Future<Integer> f : accepted) {
                total += f.get(60, TimeUnit.SECONDS); // a JobCacheException (SQLITE_BUSY) would surface here
            }
            assertThat(total).isEqualTo(minions);
        } finally {
            pool.shutdownNow();
        }
        List<JobReturn> stored = cache.returns(jid);
        assertThat(stored).hasSize(minions);
        assertThat(stored).extracting(JobReturn::id).doesNotHaveDuplicates();
    }

    @Test
    void aCorruptFileIsMovedAsideAndANewCacheStarts() throws IOException {
        cache.saveJob(job("20260101120000000001", T0));
        cache.close();
        Path file = cachedir.resolve("jobs.sqlite");
        byte[] garbage = String.join("", Collections.nCopies(512, "this is not a database. ")).getBytes(StandardCharsets.US_ASCII);
        Files.write(file, garbage);
        Files.deleteIfExists(cachedir.resolve("jobs.sqlite-wal"));
        Files.deleteIfExists(cachedir.resolve("jobs.sqlite-shm"));

        cache = SqliteJobCache.open(cachedir);

        assertThat(cache.job("20260101120000000001")).isEmpty();
        cache.saveJob(job("20260101120000000002", T0));
        assertThat(cache.job("20260101120000000002")).isPresent();
        List<Path> aside;
        try (Stream<Path> files = Files.list(cachedir)) {
            aside = files.filter(p -> p.getFileName().toString().startsWith("jobs.sqlite.corrupt-")).toList();
        }
        assertThat(aside).singleElement().satisfies(p -> assertThat(Files.readAllBytes(p)).isEqualTo(garbage));
    }

    @Test
    void theDatabaseIsPrivateToTheMastersUser() throws IOException {
        cache.saveJob(job("20260101120000000001", T0));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cachedir))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.list(cachedir)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("jobs.sqlite")))
                    .isNotEmpty()
                    .allSatisfy(p -> assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                            .as(p.toString()).isEqualTo("rw-------"));
        }
    }

    @Test
    void aClosedCacheRefusesWritesWithItsOwnException() {
        cache.close();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> cache.saveJob(job("20260101120000000001", T0)))
                .isInstanceOf(JobCacheException.class).hasMessageContaining("closed");
        cache = SqliteJobCache.open(cachedir);
    }
}
