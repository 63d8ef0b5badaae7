package io.jsalt.bench.scenario;

import java.nio.file.Path;
import java.util.List;

/**
 * What every scenario reads from the command line.
 *
 * @param sizes        the N values to run (minions)
 * @param quick        the short version (fewer rounds, shorter runs)
 * @param out          where results (JSON, tables, the plot, run folders) go
 * @param cacheDir     the key cache (see KeyCache)
 * @param swarmKind    "light" or "real" (see SwarmSettings)
 * @param perJvm       minions per swarm JVM (the swarm JVM count follows)
 * @param signReturns  minions sign their returns (jsalt's default; the master requires it)
 * @param workerThreads the master's worker_threads
 * @param masterJvm    JVM options of the master (default: bin/jsalt-master's, {@link io.jsalt.bench.harness.DaemonJvm#MASTER})
 * @param seconds      sustained load: how long
 * @param rate         sustained load: jobs per second
 * @param reauthDelay  the minions' random_reauth_delay (restart storm)
 * @param jsaltHome    the folder holding bin/jsalt, for the CLI's wall time
 * @param jobCacheDsn  sustained load: a libpq connection string for {@code master_job_cache: postgres}; null for the
 *                     master's default (SQLite)
 * @param minionJvm    JVM options of jsalt-minion processes (default: bin/jsalt-minion's, {@link io.jsalt.bench.harness.DaemonJvm#MINION})
 */
public record BenchOptions(List<Integer> sizes, boolean quick, Path out, Path cacheDir, String swarmKind, int perJvm,
        boolean signReturns, int workerThreads, List<String> masterJvm, int seconds, double rate, int reauthDelay, Path jsaltHome,
        String jobCacheDsn, List<String> minionJvm) {

    public BenchOptions {
        sizes = List.copyOf(sizes);
        masterJvm = List.copyOf(masterJvm);
        minionJvm = List.copyOf(minionJvm);
    }

    public BenchOptions withSizes(List<Integer> n) {
        return new BenchOptions(n, quick, out, cacheDir, swarmKind, perJvm, signReturns, workerThreads, masterJvm, seconds, rate,
                reauthDelay, jsaltHome, jobCacheDsn, minionJvm);
    }

    /** The master's config lines for the job cache under test: none for SQLite, PostgreSQL's with a DSN. */
    public List<String> jobCacheConfig() {
        if (jobCacheDsn == null) {
            return List.of();
        }
        return List.of("master_job_cache: postgres", "returner.pgjsonb.dsn: '" + jobCacheDsn.replace("'", "''") + "'");
    }

    /**
     * A new run folder (master and swarm files, logs). Under the temp folder, not under {@code out}: the
     * master's event socket lives in it, and a UNIX socket path may not exceed 107 bytes.
     */
    public Path runDir(String name) {
        return Path.of(System.getProperty("java.io.tmpdir"), "jsalt-bench", name + "-" + System.currentTimeMillis());
    }

    public int jvmsFor(int n) {
        return Math.max(1, (n + perJvm - 1) / perJvm);
    }

    /**
     * The swarm JVMs' options: enough heap for a few thousand minions, small thread stacks; then any of
     * JSALT_BENCH_SWARM_JVM (split at spaces: a profile of the swarm, e.g. {@code -XX:StartFlightRecording=...}).
     */
    public List<String> swarmJvm() {
        List<String> options = new java.util.ArrayList<>(List.of("-Xmx3g", "-Xss256k", "-XX:+UseParallelGC"));
        String extra = System.getenv("JSALT_BENCH_SWARM_JVM");
        if (extra != null && !extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        return options;
    }
}
