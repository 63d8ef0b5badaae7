package io.jsalt.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.jsalt.bench.report.Json;
import io.jsalt.bench.harness.DaemonJvm;
import io.jsalt.bench.scenario.BenchOptions;
import io.jsalt.bench.scenario.ScenarioResult;
import io.jsalt.bench.swarm.KeyCache;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jsalt-bench <scenario> [options]}: runs one scenario (or {@code all}) and prints its JSON and its
 * table; both are also written to {@code --out}. Every scenario starts and stops its own processes.
 */
@Command(name = "jsalt-bench", mixinStandardHelpOptions = true,
        description = "Scale benchmarks of jsalt: a swarm of minions against a real master.")
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "signin, fanout, fanout-procs, sustained, restart, failover, memory, states, supervise, api, vs-salt, master-capacity, minion-cpu, jmh, keys, pg-lookup, or all")
    String scenario;

    @Option(names = "--n", split = ",", description = "Minion counts (default per scenario; fanout: 1,10,100,1000,5000,10000).")
    List<Integer> sizes;

    @Option(names = "--quick", description = "The short version: small N, few rounds (all --quick: under 5 minutes).")
    boolean quick;

    @Option(names = "--out", description = "Results folder (default: bench/target/bench-results).")
    Path out;

    @Option(names = "--swarm", description = "light (shared threads, any N) or real (the product's Minion class per id).", defaultValue = "light")
    String swarmKind;

    @Option(names = "--per-jvm", description = "Minions per swarm JVM (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
    int perJvm;

    @Option(names = "--unsigned-returns", description = "Minions do not sign returns (and the master does not require it).")
    boolean unsigned;

    @Option(names = "--worker-threads", description = "The master's worker_threads (default: ${DEFAULT-VALUE}).", defaultValue = "5")
    int workerThreads;

    @Option(names = "--master-jvm", split = " ", description = "JVM options of the master (default: bin/jsalt-master's).")
    List<String> masterJvm = new ArrayList<>(DaemonJvm.MASTER);

    @Option(names = "--minion-jvm", split = " ", description = "JVM options of jsalt-minion processes (default: bin/jsalt-minion's),"
            + " e.g. to add -XX:StartFlightRecording=... for a profile.")
    List<String> minionJvm = new ArrayList<>(DaemonJvm.MINION);

    @Option(names = "--seconds", description = "Sustained load, supervise's idle CPU: seconds (default: 60; quick: 10).")
    Integer seconds;

    @Option(names = "--rate", description = "Sustained load: jobs per second to all minions (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    double rate;

    @Option(names = "--job-cache-dsn", description = "Sustained load: keep jobs in this PostgreSQL (a libpq connection string,"
            + " master_job_cache: postgres) instead of the default SQLite.")
    String jobCacheDsn;

    @Option(names = "--swarm-io-threads", description = "JeroMQ I/O threads of each light swarm JVM (default: one per"
            + " " + io.jsalt.bench.swarm.SwarmSettings.MINIONS_PER_IO_THREAD + " minions of it; 1 was the only choice before session 14).")
    int swarmIoThreads;

    @Option(names = "--swarm-subs-per-thread", description = "Subscriptions each subscription thread of a light swarm JVM polls"
            + " (default: ${DEFAULT-VALUE}; 512, the transport's default, before session 14).", defaultValue = "25")
    int swarmSubsPerThread;

    @Option(names = "--reauth-delay", description = "The minions' random_reauth_delay in seconds (default: ${DEFAULT-VALUE}).", defaultValue = "5")
    int reauthDelay;

    public static void main(String[] args) {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        // interrupted (Ctrl-C, a timeout): no master or swarm JVM outlives the benchmark
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly),
                "bench-cleanup"));
        System.exit(execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path home = System.getenv("JSALT_HOME") == null ? Path.of("").toAbsolutePath() : Path.of(System.getenv("JSALT_HOME"));
        Path results = out != null ? out : home.resolve("bench/target/bench-results");
        Files.createDirectories(results);
        BenchOptions o = new BenchOptions(sizes == null ? List.of() : sizes, quick, results.toAbsolutePath(), KeyCache.defaultCacheDir(),
                swarmKind, perJvm, !unsigned, workerThreads, masterJvm, seconds == null ? (quick ? 10 : 60) : seconds, rate, reauthDelay, home,
                jobCacheDsn, minionJvm, swarmIoThreads, swarmSubsPerThread);
        List<String> names = "all".equals(scenario) ? List.of("signin", "fanout", "fanout-procs", "sustained", "restart", "memory", "jmh") : List.of(scenario);
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("date", ZonedDateTime.now(ZoneOffset.UTC).toString());
        all.put("machine", Machine.describe());
        all.put("command", "jsalt-bench " + String.join(" ", Arrays.asList(rawArgs)));
        int failures = 0;
        for (String name : names) {
            long t0 = System.nanoTime();
            ScenarioResult r;
            try {
                r = Scenarios.run(name, o);
            } catch (Exception e) {
                failures++;
                System.err.println(name + " failed: " + e);
                e.printStackTrace();
                continue;
            }
            r.json().put("duration_s", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            all.put(name, r.json());
            String json = Json.write(r.json());
            Files.writeString(results.resolve(name + ".json"), json + "\n", StandardCharsets.UTF_8);
            Files.writeString(results.resolve(name + ".txt"), r.table(), StandardCharsets.UTF_8);
            System.out.println(json);
            System.out.println();
            System.out.println("== " + name + " ==");
            System.out.println(r.table());
        }
        Files.writeString(results.resolve("summary.json"), Json.write(all) + "\n", StandardCharsets.UTF_8);
        return failures == 0 ? 0 : 1;
    }

    private String[] rawArgs = new String[0];

    @Override
    public String toString() {
        return "jsalt-bench " + scenario;
    }

    static int execute(String[] args) {
        BenchCommand c = new BenchCommand();
        c.rawArgs = args.clone();
        return new CommandLine(c).execute(args);
    }
}
