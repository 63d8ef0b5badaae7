package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.PeakWatch;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.report.FanoutPlot;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 2: {@code test.ping} to all N minions, for each N: the time until the last return and the
 * per-minion latency (publish request sent to return seen on the event bus), in process through the
 * client API, and the wall time of the real {@code bin/jsalt '*' test.ping}. Writes the plot.
 */
public final class FanOut {
    private FanOut() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        List<FanoutPlot.Point> points = new ArrayList<>();
        TextTable table = new TextTable("N", "rounds", "p50 ms", "p95 ms", "p99 ms", "last ms", "CLI wall ms", "CLI+CDS ms", "missing", "master CPU s", "swarm CPU s", "master RSS MiB", "master fds");
        int rounds = o.quick() ? 3 : 5;
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n, rounds);
            rows.add(r);
            @SuppressWarnings("unchecked")
            Map<String, Object> lat = (Map<String, Object>) r.get("latency");
            Map<String, Double> series = new LinkedHashMap<>();
            series.put("p50", (Double) lat.get("p50_ms"));
            series.put("p95", (Double) lat.get("p95_ms"));
            series.put("p99", (Double) lat.get("p99_ms"));
            series.put("last return", (Double) r.get("last_return_ms_median"));
            series.put("bin/jsalt wall", (Double) r.get("cli_wall_ms_median"));
            series.put("bin/jsalt + AppCDS", (Double) r.get("cli_wall_appcds_ms_median"));
            points.add(new FanoutPlot.Point(n, series));
            table.row(n, rounds, lat.get("p50_ms"), lat.get("p95_ms"), lat.get("p99_ms"), r.get("last_return_ms_median"),
                    r.get("cli_wall_ms_median"), r.get("cli_wall_appcds_ms_median"), r.get("missing_returns"), r.get("master_cpu_s"), r.get("swarm_cpu_s"), r.get("master_rss_peak_mib"), r.get("master_fds_peak"));
        }
        FanoutPlot.write(points, "jsalt fan-out: test.ping to N minions (" + o.swarmKind() + " swarm)", o.out().resolve("fanout.png"));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "fanout");
        json.put("plot", o.out().resolve("fanout.png").toString());
        json.put("results", rows);
        return new ScenarioResult("fanout", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n, int rounds) throws IOException {
        try (Fleet fleet = Fleet.launch(o, "fanout", n, List.of())) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("n", n);
            r.put("swarm_jvms", fleet.swarm.jvms());
            long t0 = fleet.swarm.start();
            if (!fleet.awaitSignedIn(Duration.ofSeconds(Math.max(120, n / 20)))) {
                r.put("error", "not all minions signed in: " + fleet.swarm.signedIn() + " of " + n);
                return withEmptyFigures(r);
            }
            // the sign-in storm comes for free: every fleet starts with one
            long[] signIns = fleet.swarm.signInsSince(t0);
            r.put("sign_in_all_s", Latencies.round((signIns[signIns.length - 1] - t0) / 1000.0));
            r.put("sign_in_peak_per_s", PerSecond.peak(signIns));
            try (JobClient client = new JobClient(fleet.master.config()); PeakWatch peak = new PeakWatch(fleet.master.pid())) {
                fleet.warmUp(client, 3);
                String loadBefore = LoadAverage.now();
                ProcSample before = fleet.master.sample();
                ProcSample swarmBefore = fleet.swarm.sample();
                Map<String, Long> masterThreadsBefore = io.jsalt.bench.harness.TreeCpu.perThreadName(fleet.master.pid());
                Map<String, Long> swarmThreadsBefore = fleet.swarm.cpuByThreadName();
                List<Double> all = new ArrayList<>();
                List<Double> firedMs = new ArrayList<>();
                List<Double> publishMs = new ArrayList<>();
                double[] last = new double[rounds];
                double[] p50 = new double[rounds];
                int lost = 0;
                for (int i = 0; i < rounds; i++) {
                    JobClient.Published p = client.publish("*", "test.ping", List.of());
                    Map<String, Long> got = client.gather(p, Duration.ofSeconds(60));
                    lost += p.minions().size() - got.size();
                    publishMs.add((p.answeredNanos() - p.sentNanos()) / 1e6);
                    client.firedTimes(p.jid()).values().forEach(f -> firedMs.add((double) (f - p.sentEpochMs())));
                    double max = 0;
                    List<Double> round = new ArrayList<>();
                    for (long at : got.values()) {
                        double ms = (at - p.sentNanos()) / 1e6;
                        all.add(ms);
                        round.add(ms);
                        max = Math.max(max, ms);
                    }
                    last[i] = max;
                    p50[i] = Latencies.ofMillis(round).p50();
                }
                ProcSample after = fleet.master.sample();
                ProcSample swarmAfter = fleet.swarm.sample();
                // where the rounds' CPU went, by thread (the I/O threads' walks, the job threads, the JIT)
                Map<String, Long> masterThreads = io.jsalt.bench.harness.TreeCpu.used(masterThreadsBefore,
                        io.jsalt.bench.harness.TreeCpu.perThreadName(fleet.master.pid()));
                Map<String, Long> swarmThreads = io.jsalt.bench.harness.TreeCpu.used(swarmThreadsBefore, fleet.swarm.cpuByThreadName());
                String loadAfter = LoadAverage.now();
                CliTimer cli = new CliTimer(o.jsaltHome());
                double[] wall = new double[o.quick() ? 2 : 3];
                for (int i = 0; i < wall.length; i++) {
                    wall[i] = cli.wallMillis(fleet.master.configDir(), fleet.root.resolve("cli-" + i + ".out"), "--out", "json", "*", "test.ping");
                }
                CliTimer cds = cli.withAppCds(o.cacheDir().resolve("cli-cds"), fleet.master.configDir(), fleet.root.resolve("cli-cds-dump.out"),
                        "--out", "json", "*", "test.ping");
                double[] cdsWall = new double[wall.length];
                for (int i = 0; i < cdsWall.length; i++) {
                    cdsWall[i] = cds.wallMillis(fleet.master.configDir(), fleet.root.resolve("cli-cds-" + i + ".out"), "--out", "json", "*", "test.ping");
                }
                r.put("rounds", rounds);
                r.put("latency", Latencies.ofMillis(all).toMap());
                // the same returns, when the master fired their events (its clock, ms resolution): the rest is the event bus
                r.put("latency_to_master_event", Latencies.ofMillis(firedMs).toMap());
                r.put("publish_request_ms", Latencies.ofMillis(publishMs).toMap());
                r.put("last_return_ms", Arrays.stream(last).map(Latencies::round).boxed().toList());
                r.put("last_return_ms_median", Latencies.round(median(last)));
                r.put("p50_ms_per_round", Arrays.stream(p50).map(Latencies::round).boxed().toList());
                r.put("loadavg_before", loadBefore);
                r.put("loadavg_after", loadAfter);
                r.put("master_cpu_by_thread_ms", masterThreads);
                r.put("swarm_cpu_by_thread_ms", swarmThreads);
                r.put("cli_wall_ms", Arrays.stream(wall).map(Latencies::round).boxed().toList());
                r.put("cli_wall_ms_median", Latencies.round(median(wall)));
                r.put("cli_wall_appcds_ms", Arrays.stream(cdsWall).map(Latencies::round).boxed().toList());
                r.put("cli_wall_appcds_ms_median", Latencies.round(median(cdsWall)));
                r.put("cli_command", String.join(" ", cli.command(fleet.master.configDir(), "--out", "json", "*", "test.ping")));
                r.put("missing_returns", lost);
                r.put("master_cpu_s", Latencies.round((after.cpuMillis() - before.cpuMillis()) / 1000.0));
                // what the rounds cost the swarm beside the master, on the same cores
                r.put("swarm_cpu_s", Latencies.round((swarmAfter.cpuMillis() - swarmBefore.cpuMillis()) / 1000.0));
                r.put("master_rss_peak_mib", Latencies.round(peak.peak().rssMiB()));
                r.put("master_fds_peak", peak.peak().fds());
                r.put("master_threads", after.threads());
                ProcSample swarm = fleet.swarm.sample();
                r.put("swarm_rss_mib", Latencies.round(swarm.rssMiB()));
                r.put("swarm_fds", swarm.fds());
                r.put("swarm_threads", swarm.threads());
                return r;
            }
        }
    }

    private static Map<String, Object> withEmptyFigures(Map<String, Object> r) {
        r.put("latency", Latencies.NONE.toMap());
        r.put("last_return_ms_median", 0.0);
        r.put("cli_wall_ms_median", 0.0);
        r.put("cli_wall_appcds_ms_median", 0.0);
        r.put("missing_returns", -1);
        r.put("master_cpu_s", 0.0);
        r.put("swarm_cpu_s", 0.0);
        r.put("master_rss_peak_mib", 0.0);
        r.put("master_fds_peak", 0);
        return r;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length == 0 ? 0 : v[(v.length - 1) / 2];
    }
}
