package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.MinionProcesses;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 2b: {@code jsalt '*' test.ping} against N separate {@code jsalt-minion} processes (the issue's
 * CLI targets: 1 and 50 minion processes), timed as the wall time of the real bin/jsalt process, with
 * and without an AppCDS archive, plus the in-process latency of the same pings.
 */
public final class ProcessFanOut {
    private ProcessFanOut() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("minion processes", "p50 ms", "last ms", "bin/jsalt wall ms", "bin/jsalt + AppCDS ms", "missing");
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n);
            rows.add(r);
            table.row(n, r.get("p50_ms"), r.get("last_return_ms_median"), r.get("cli_wall_ms_median"), r.get("cli_wall_appcds_ms_median"),
                    r.get("missing_returns"));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "fanout-procs");
        json.put("minion_jvm", "bin/jsalt-minion defaults");
        json.put("results", rows);
        return new ScenarioResult("fanout-procs", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n) throws IOException {
        Path root = o.runDir("fanout-procs-" + n);
        List<String> config = new ArrayList<>(List.of("worker_threads: " + o.workerThreads()));
        try (MasterProcess master = new MasterProcess(root, o.masterJvm(), config)) {
            KeyCache keys = new KeyCache(o.cacheDir());
            keys.ensure(n, 2);
            master.start();
            try (MinionProcesses minions = MinionProcesses.start(master, root, keys, n, o.minionJvm());
                    JobClient client = new JobClient(master.config())) {
                long deadline = System.nanoTime() + Duration.ofSeconds(120 + n).toNanos();
                while (client.gather(client.publish("*", "test.ping", List.of()), Duration.ofSeconds(3)).size() < n) {
                    if (System.nanoTime() > deadline || !minions.allAlive()) {
                        throw new IOException("not every minion process answered; see " + root.resolve("console"));
                    }
                }
                int rounds = o.quick() ? 3 : 5;
                List<Double> all = new ArrayList<>();
                double[] last = new double[rounds];
                int lost = 0;
                for (int i = 0; i < rounds; i++) {
                    JobClient.Published p = client.publish("*", "test.ping", List.of());
                    Map<String, Long> got = client.gather(p, Duration.ofSeconds(30));
                    lost += p.minions().size() - got.size();
                    for (long at : got.values()) {
                        double ms = (at - p.sentNanos()) / 1e6;
                        all.add(ms);
                        last[i] = Math.max(last[i], ms);
                    }
                }
                CliTimer cli = new CliTimer(o.jsaltHome());
                CliTimer cds = cli.withAppCds(o.cacheDir().resolve("cli-cds"), master.configDir(), root.resolve("cli-cds-dump.out"),
                        "--out", "json", "*", "test.ping");
                double[] wall = new double[o.quick() ? 3 : 5];
                double[] cdsWall = new double[wall.length];
                for (int i = 0; i < wall.length; i++) {
                    wall[i] = cli.wallMillis(master.configDir(), root.resolve("cli-" + i + ".out"), "--out", "json", "*", "test.ping");
                    cdsWall[i] = cds.wallMillis(master.configDir(), root.resolve("cli-cds-" + i + ".out"), "--out", "json", "*", "test.ping");
                }
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("n", n);
                r.put("latency", Latencies.ofMillis(all).toMap());
                r.put("p50_ms", Latencies.round(Latencies.ofMillis(all).p50()));
                r.put("last_return_ms_median", Latencies.round(FanOut.median(last)));
                r.put("missing_returns", lost);
                r.put("cli_wall_ms", Arrays.stream(wall).map(Latencies::round).boxed().toList());
                r.put("cli_wall_ms_median", Latencies.round(FanOut.median(wall)));
                r.put("cli_wall_appcds_ms", Arrays.stream(cdsWall).map(Latencies::round).boxed().toList());
                r.put("cli_wall_appcds_ms_median", Latencies.round(FanOut.median(cdsWall)));
                r.put("cli_command", String.join(" ", cli.command(master.configDir(), "--out", "json", "*", "test.ping")));
                return r;
            }
        }
    }
}
