package io.jsalt.bench.scenario;

import io.jsalt.bench.harness.PeakWatch;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.harness.TreeCpu;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 1: N minions whose keys are already accepted start at once; the time until every one is signed
 * in (each minion's own sign-in instant, from the moment the swarm was told to start), the master's CPU
 * (by thread, and how much of it its JIT compilers took) and peak RSS meanwhile, the swarm's CPU on the same
 * cores, and the peak sign-ins per second.
 */
public final class SignInStorm {
    /** HotSpot's C1 and C2 compiler threads, as {@link TreeCpu#perThreadName} names them. */
    private static final String JIT_THREADS = "CN CompilerThre";

    private SignInStorm() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("N", "all signed in s", "p50 s", "p95 s", "peak sign-ins/s", "master CPU s", "of it JIT s", "swarm CPU s",
                "master RSS MiB", "master fds");
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n);
            rows.add(r);
            table.row(n, r.get("all_signed_in_s"), r.get("p50_s"), r.get("p95_s"), r.get("peak_sign_ins_per_s"), r.get("master_cpu_s"),
                    r.get("master_jit_cpu_s"), r.get("swarm_cpu_s"), r.get("master_rss_peak_mib"), r.get("master_fds_peak"));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "signin");
        json.put("results", rows);
        return new ScenarioResult("signin", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n) throws IOException {
        try (Fleet fleet = Fleet.launch(o, "signin", n, List.of())) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("n", n);
            r.put("swarm_jvms", fleet.swarm.jvms());
            try (PeakWatch peak = new PeakWatch(fleet.master.pid())) {
                ProcSample before = fleet.master.sample();
                Map<String, Long> threadsBefore = TreeCpu.perThreadName(fleet.master.pid());
                ProcSample swarmBefore = fleet.swarm.sample();
                Map<String, Long> swarmThreadsBefore = fleet.swarm.cpuByThreadName();
                long t0 = fleet.swarm.start();
                boolean all = fleet.awaitSignedIn(Duration.ofSeconds(Math.max(120, n / 10)));
                ProcSample after = fleet.master.sample();
                Map<String, Long> byThread = TreeCpu.used(threadsBefore, TreeCpu.perThreadName(fleet.master.pid()));
                ProcSample swarmAfter = fleet.swarm.sample();
                Map<String, Long> swarmByThread = TreeCpu.used(swarmThreadsBefore, fleet.swarm.cpuByThreadName());
                long[] at = fleet.swarm.signInsSince(t0);
                double[] seconds = new double[at.length];
                for (int i = 0; i < at.length; i++) {
                    seconds[i] = (at[i] - t0) / 1000.0;
                }
                Latencies l = Latencies.ofMillis(seconds); // values in seconds here
                r.put("signed_in", at.length);
                r.put("complete", all);
                r.put("all_signed_in_s", Latencies.round(l.max() * 10) / 10.0);
                r.put("p50_s", Latencies.round(l.p50() * 10) / 10.0);
                r.put("p95_s", Latencies.round(l.p95() * 10) / 10.0);
                r.put("peak_sign_ins_per_s", PerSecond.peak(at));
                r.put("master_cpu_s", Latencies.round((after.cpuMillis() - before.cpuMillis()) / 1000.0));
                // a master started for the storm compiles its sign-in path during it (docs/BENCHMARKS.md)
                r.put("master_jit_cpu_s", Latencies.round(byThread.getOrDefault(JIT_THREADS, 0L) / 1000.0));
                r.put("master_cpu_ms_by_thread", byThread);
                // the swarm shares the master's cores: its CPU is the rest of what the storm cost them
                r.put("swarm_cpu_s", Latencies.round((swarmAfter.cpuMillis() - swarmBefore.cpuMillis()) / 1000.0));
                r.put("swarm_cpu_ms_by_thread", swarmByThread);
                r.put("master_rss_peak_mib", Latencies.round(peak.peak().rssMiB()));
                r.put("master_rss_after_mib", Latencies.round(after.rssMiB()));
                r.put("master_fds_peak", peak.peak().fds());
                r.put("master_fds_after", after.fds());
                r.put("master_threads", after.threads());
            }
            return r;
        }
    }
}
