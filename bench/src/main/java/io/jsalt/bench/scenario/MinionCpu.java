package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.MinionProcesses;
import io.jsalt.bench.harness.TreeCpu;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario "minion-cpu": the CPU one minion process spends per {@code test.ping}, from {@code /proc} (user +
 * system time of the process and its job processes), over N jobs sent one after the other, for a jsalt-minion
 * (bin/jsalt-minion's JVM options) and then a real salt-minion 3006.8, each alone against the same jsalt
 * master, after a warm-up of its own and 10 s left idle (whose CPU is given too: what a minion costs doing
 * nothing). CPU time, not wall time, so a figure taken on a loaded machine still means something; the master's
 * CPU per job is given beside it. Without ../shared/salt only the jsalt minion runs.
 */
public final class MinionCpu {
    static final int WARM_UP_JOBS = 100;
    /** How long the minion is left idle, after its warm-up, to read what it spends doing nothing. */
    static final long IDLE_MS = 10_000;

    private MinionCpu() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("minion", "jobs", "minion CPU ms/job", "idle minion CPU ms/s", "master CPU ms/job",
                "round trip p50 ms", "missing", "load before");
        for (int n : o.sizes()) {
            for (Map<String, Object> r : runOne(o, n)) {
                rows.add(r);
                table.row(r.get("minion"), n, r.get("minion_cpu_ms_per_job"), r.get("idle_cpu_ms_per_s"), r.get("master_cpu_ms_per_job"),
                        r.get("round_trip_p50_ms"), r.get("missing_returns"), r.get("loadavg_before"));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "minion-cpu");
        json.put("warm_up_jobs", WARM_UP_JOBS);
        json.put("minion_jvm", o.minionJvm());
        json.put("results", rows);
        String ratio = rows.size() == 2 ? String.format(java.util.Locale.ROOT, "salt-minion / jsalt-minion CPU per job: %.1f%n",
                (Double) rows.get(1).get("minion_cpu_ms_per_job") / Math.max(0.01, (Double) rows.get(0).get("minion_cpu_ms_per_job"))) : "";
        return new ScenarioResult("minion-cpu", json, table.render() + ratio);
    }

    private static List<Map<String, Object>> runOne(BenchOptions o, int n) throws IOException {
        Path root = o.runDir("minion-cpu-" + n);
        Path salt = SaltInstall.find(o.jsaltHome());
        List<String> config = new ArrayList<>(List.of("worker_threads: " + o.workerThreads(), "auto_accept: True"));
        List<Map<String, Object>> out = new ArrayList<>();
        try (MasterProcess master = new MasterProcess(root, o.masterJvm(), config)) {
            master.start();
            try (MinionProcesses jsalt = MinionProcesses.start(master, root, new KeyCache(o.cacheDir()), 1, o.minionJvm());
                    JobClient client = new JobClient(master.config())) {
                String id = KeyCache.ids(0, 1).get(0);
                StateApply.awaitPing(client, id, root);
                out.add(measure(client, master, "jsalt-minion", id, jsalt.processes().get(0).pid(), n));
                jsalt.close(); // alone on the machine while the salt-minion is measured
                if (salt != null) {
                    Process minion = StateApply.startSaltMinion(salt, master, root);
                    try {
                        StateApply.awaitPing(client, StateApply.SALT_ID, root);
                        out.add(measure(client, master, "salt-minion 3006.8", StateApply.SALT_ID, minion.pid(), n));
                    } finally {
                        JavaProcess.stop(minion, 10);
                    }
                }
            }
        }
        return out;
    }

    private static Map<String, Object> measure(JobClient client, MasterProcess master, String kind, String id, long pid, int n)
            throws IOException {
        for (int i = 0; i < WARM_UP_JOBS; i++) {
            client.gather(client.publish(id, "test.ping", List.of()), Duration.ofSeconds(10));
        }
        long idle0 = TreeCpu.millis(pid);
        MasterProcess.pause(IDLE_MS);
        double idleMsPerS = (TreeCpu.millis(pid) - idle0) * 1000.0 / IDLE_MS;
        String loadBefore = LoadAverage.now();
        long minionBefore = TreeCpu.millis(pid);
        long masterBefore = TreeCpu.millis(master.pid());
        long t0 = System.nanoTime();
        List<Double> roundTrips = new ArrayList<>(n);
        int missing = 0;
        for (int i = 0; i < n; i++) {
            JobClient.Published p = client.publish(id, "test.ping", List.of());
            Map<String, Long> got = client.gather(p, Duration.ofSeconds(10));
            if (got.containsKey(id)) {
                roundTrips.add((got.get(id) - p.sentNanos()) / 1e6);
            } else {
                missing++;
            }
        }
        double wallS = (System.nanoTime() - t0) / 1e9;
        long minionCpu = TreeCpu.millis(pid) - minionBefore;
        long masterCpu = TreeCpu.millis(master.pid()) - masterBefore;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("minion", kind);
        r.put("jobs", n);
        r.put("minion_cpu_ms", minionCpu);
        r.put("minion_cpu_ms_per_job", Latencies.round((double) minionCpu / n));
        r.put("master_cpu_ms_per_job", Latencies.round((double) masterCpu / n));
        r.put("idle_cpu_ms_per_s", Latencies.round(idleMsPerS));
        r.put("round_trip_p50_ms", Latencies.round(Latencies.ofMillis(roundTrips).p50()));
        r.put("wall_s", Latencies.round(wallS));
        r.put("missing_returns", missing);
        r.put("loadavg_before", loadBefore);
        r.put("loadavg_after", LoadAverage.now());
        return r;
    }
}
