package io.jsalt.bench.scenario;

import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.PostgresSettings;
import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.master.jobs.pg.PgConnector;
import io.jsalt.master.jobs.pg.PostgresJobCache;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code jobs.lookup_jid} and {@code jobs.list_jobs} as the PostgreSQL job cache answers them with N stored returns
 * (10 per job): the rows loaded with SQL into the database {@code --job-cache-dsn} names (jids of 1999, so they
 * touch nothing real; removed after), then random jobs looked up through {@link PostgresJobCache}, the code the
 * runners call. Wall time and this thread's CPU time per call: the CPU time is what load from other processes
 * inflates least.
 */
public final class PgLookup {
    private static final int RETURNS_PER_JOB = 10;
    private static final int LOOKUPS = 2_000;
    private static final String FIRST_JID = "19990101000000000000";

    private PgLookup() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        if (o.jobCacheDsn() == null) {
            throw new IllegalArgumentException("pg-lookup needs --job-cache-dsn (the PostgreSQL to load and read)");
        }
        Path tmp = Files.createTempDirectory("jsalt-bench-pg-lookup");
        PostgresSettings settings = MasterConfig.builder(tmp).set("master_job_cache", "postgres")
                .set("returner.pgjsonb.dsn", o.jobCacheDsn()).build().postgres();
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("returns stored", "call", "calls", "p50 ms", "p99 ms", "CPU ms/call");
        for (int n : o.sizes()) {
            int jobs = Math.max(1, n / RETURNS_PER_JOB);
            try (PostgresJobCache cache = PostgresJobCache.open(settings, tmp)) {
                long loadStart = System.nanoTime();
                load(settings, jobs);
                double loadS = (System.nanoTime() - loadStart) / 1e9;
                Map<String, Object> lookup = measure(LOOKUPS, i -> {
                    List<JobReturn> got = cache.returns(jid(i));
                    if (got.size() != RETURNS_PER_JOB) {
                        throw new IllegalStateException(jid(i) + ": " + got.size() + " returns");
                    }
                }, jobs);
                Map<String, Object> list = measure(200, i -> {
                    List<Job> got = cache.jobsBetween(jid(i), jid(i + 999));
                    if (got.isEmpty()) {
                        throw new IllegalStateException("no jobs from " + jid(i));
                    }
                }, Math.max(1, jobs - 1_000));
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("returns", (long) jobs * RETURNS_PER_JOB);
                r.put("jobs", jobs);
                r.put("load_s", Latencies.round(loadS));
                r.put("lookup_jid", lookup);
                r.put("list_jobs_1000", list);
                rows.add(r);
                table.row(r.get("returns"), "jobs.lookup_jid (10 returns)", LOOKUPS, lookup.get("p50_ms"), lookup.get("p99_ms"),
                        lookup.get("cpu_ms_per_call"));
                table.row(r.get("returns"), "jobs.list_jobs (1,000 jobs)", 200, list.get("p50_ms"), list.get("p99_ms"),
                        list.get("cpu_ms_per_call"));
            } finally {
                unload(settings);
            }
        }
        try (java.util.stream.Stream<Path> left = Files.walk(tmp)) {
            left.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "pg-lookup");
        json.put("results", rows);
        return new ScenarioResult("pg-lookup", json, table.render());
    }

    private interface Call {
        void run(int jobIndex) throws Exception;
    }

    /** {@code calls} calls on random jobs below {@code jobs}, after a warm-up of a tenth as many. */
    private static Map<String, Object> measure(int calls, Call call, int jobs) throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < calls / 10; i++) {
            call.run(random.nextInt(jobs));
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[] millis = new double[calls];
        long cpuBefore = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            long t = System.nanoTime();
            call.run(random.nextInt(jobs));
            millis[i] = (System.nanoTime() - t) / 1e6;
        }
        long cpuNanos = cpu.getCurrentThreadCpuTime() - cpuBefore;
        Map<String, Object> m = new LinkedHashMap<>(Latencies.ofMillis(millis).toMap());
        m.put("cpu_ms_per_call", Latencies.round(cpuNanos / 1e6 / calls));
        return m;
    }

    /** The jid of job {@code jobIndex}: 20 digits, too many for a long, so the index is written into the last six. */
    private static String jid(int jobIndex) {
        return FIRST_JID.substring(0, 14) + String.format("%06d", jobIndex);
    }

    /** Jobs and their returns, shaped as the master writes them, in one statement each. */
    private static void load(PostgresSettings settings, int jobs) throws SQLException {
        try (Connection c = new PgConnector(settings).open(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO jids (jid, load, started) SELECT (19990101000000000000::numeric + g)::text,"
                    + " jsonb_build_object('jid', (19990101000000000000::numeric + g)::text, 'fun', 'test.ping', 'arg', '[]'::jsonb,"
                    + " 'tgt', '*', 'tgt_type', 'glob', 'user', 'root'), now() FROM generate_series(0, " + (jobs - 1) + ") g"
                    + " ON CONFLICT DO NOTHING");
            s.execute("INSERT INTO salt_returns (fun, jid, return, id, success, full_ret, retcode, verified)"
                    + " SELECT 'test.ping', j.jid, 'true'::jsonb, 'minion' || m, 'true',"
                    + " jsonb_build_object('fun', 'test.ping', 'jid', j.jid, 'id', 'minion' || m, 'return', true, 'retcode', 0,"
                    + " 'success', true), 0, true"
                    + " FROM jids j, generate_series(1, " + RETURNS_PER_JOB + ") m WHERE j.jid LIKE '1999%'"
                    + " ON CONFLICT DO NOTHING");
            s.execute("ANALYZE jids");
            s.execute("ANALYZE salt_returns");
        }
    }

    private static void unload(PostgresSettings settings) throws SQLException {
        try (Connection c = new PgConnector(settings).open(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM salt_returns WHERE jid LIKE '1999%'");
            s.execute("DELETE FROM jids WHERE jid LIKE '1999%'");
        }
    }
}
