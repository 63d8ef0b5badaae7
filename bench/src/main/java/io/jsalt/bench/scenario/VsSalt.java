package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.MinionProcesses;
import io.jsalt.bench.harness.SaltProcesses;
import io.jsalt.bench.harness.TreeCpu;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.KeyCache;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scenario "vs-salt": the side-by-side figure. For each K, K real salt-minion 3006.8 processes on a real
 * salt-master and K real jsalt-minion processes on a jsalt master, all running at once on this machine; then pairs
 * of CLI runs, {@code salt '*' test.ping} and {@code bin/jsalt '*' test.ping} (each with {@code --out json}, jsalt
 * with the CDS archive its first run writes, as an operator's second run has it), one right after the other so
 * both pay the same load. Each run is timed fork to exit and must name all K minions. Per side the CPU every
 * process spent on the run (CLI, master, minions, from /proc) is given too: it means something on a loaded machine
 * where wall time does not. Printed: the medians, the median of the pairs' ratios.
 */
public final class VsSalt {
    private VsSalt() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        Path salt = SaltInstall.find(o.jsaltHome());
        if (salt == null) {
            throw new IOException("vs-salt needs real Salt at ../shared/salt/salt beside " + o.jsaltHome());
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("minion processes", "salt wall ms", "jsalt wall ms", "salt / jsalt wall", "salt CPU ms/run",
                "jsalt CPU ms/run", "salt / jsalt CPU", "pairs", "load before");
        for (int k : o.sizes()) {
            Map<String, Object> r = runOne(o, salt, k);
            rows.add(r);
            table.row(k, ms(r.get("salt_wall_s_median")), ms(r.get("jsalt_wall_s_median")), ratio(r.get("wall_ratio_median")),
                    ms(r.get("salt_cpu_s_median")), ms(r.get("jsalt_cpu_s_median")), ratio(r.get("cpu_ratio_median")), r.get("pairs"),
                    r.get("loadavg_before"));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "vs-salt");
        json.put("salt", salt.toString());
        json.put("minion_jvm", o.minionJvm());
        json.put("results", rows);
        return new ScenarioResult("vs-salt", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, Path salt, int k) throws IOException {
        Path root = o.runDir("vs-salt-" + k);
        int pairs = o.quick() ? 3 : 5;
        try (SaltProcesses saltSide = new SaltProcesses(salt, root.resolve("s"));
                MasterProcess master = new MasterProcess(root, o.masterJvm(), List.of("worker_threads: " + o.workerThreads()))) {
            // both masters first, then each side's minions, waited for before the next side starts: 40 Python
            // minions starting at once leave a JVM master starting beside them no CPU for a minute
            saltSide.startMaster();
            master.start();
            try (MinionProcesses jsalt = MinionProcesses.start(master, root, new KeyCache(o.cacheDir()), k, o.minionJvm())) {
                List<String> jsaltIds = KeyCache.ids(0, k);
                awaitJsalt(master, jsaltIds, root);
                CliTimer jsaltCli = new CliTimer(o.jsaltHome()).withAppCds(o.cacheDir().resolve("cli-cds"), master.configDir(),
                        root.resolve("cli-cds-dump.out"), "--out", "json", "*", "test.ping");
                List<String> saltIds = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    saltIds.add(String.format("salt-%05d", i));
                    saltSide.startMinion(saltIds.get(i));
                }
                awaitSalt(saltSide, saltIds, root);
                List<Long> jsaltPids = jsalt.processes().stream().map(Process::pid).toList();
                List<Long> saltPids = saltSide.minions().stream().map(Process::pid).toList();
                String loadBefore = LoadAverage.now();
                double[] saltWall = new double[pairs];
                double[] jsaltWall = new double[pairs];
                double[] saltCpu = new double[pairs];
                double[] jsaltCpu = new double[pairs];
                double[] wallRatio = new double[pairs];
                double[] cpuRatio = new double[pairs];
                for (int i = 0; i < pairs; i++) {
                    Run s = timed(saltSide.saltCommand("--out", "json", "--static", "-t", "60", "*", "test.ping"), null,
                            root.resolve("salt-" + i + ".out"), saltSide.masterPid(), saltPids, saltIds);
                    Run j = timed(jsaltCli.command(master.configDir(), "--out", "json", "*", "test.ping"), jsaltCli.cdsDir(),
                            root.resolve("jsalt-" + i + ".out"), master.pid(), jsaltPids, jsaltIds);
                    saltWall[i] = s.wallS();
                    jsaltWall[i] = j.wallS();
                    saltCpu[i] = s.cpuS();
                    jsaltCpu[i] = j.cpuS();
                    wallRatio[i] = s.wallS() / j.wallS();
                    cpuRatio[i] = s.cpuS() / Math.max(0.001, j.cpuS());
                }
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("k", k);
                r.put("pairs", pairs);
                r.put("salt_wall_s", rounded(saltWall));
                r.put("jsalt_wall_s", rounded(jsaltWall));
                r.put("salt_wall_s_median", round2(FanOut.median(saltWall)));
                r.put("jsalt_wall_s_median", round2(FanOut.median(jsaltWall)));
                r.put("wall_ratio_median", round2(FanOut.median(wallRatio)));
                r.put("salt_cpu_s", rounded(saltCpu));
                r.put("jsalt_cpu_s", rounded(jsaltCpu));
                r.put("salt_cpu_s_median", round2(FanOut.median(saltCpu)));
                r.put("jsalt_cpu_s_median", round2(FanOut.median(jsaltCpu)));
                r.put("cpu_ratio_median", round2(FanOut.median(cpuRatio)));
                r.put("loadavg_before", loadBefore);
                r.put("loadavg_after", LoadAverage.now());
                r.put("salt_command", String.join(" ", saltSide.saltCommand("--out", "json", "--static", "-t", "60", "*", "test.ping")));
                r.put("jsalt_command", String.join(" ", jsaltCli.command(master.configDir(), "--out", "json", "*", "test.ping")));
                return r;
            }
        }
    }

    /** One CLI run: its wall time, and the CPU it, the master (and what it forked) and every minion spent meanwhile. */
    private record Run(double wallS, double cpuS) {}

    private static Run timed(List<String> command, Path cdsDir, Path out, long masterPid, List<Long> minionPids, List<String> ids)
            throws IOException {
        long cpuBefore = TreeCpu.millis(masterPid) + minionPids.stream().mapToLong(TreeCpu::millis).sum() + TreeCpu.waitedChildrenMillis();
        long t0 = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (cdsDir != null) {
            pb.environment().put("JSALT_CDS_DIR", cdsDir.toString());
        }
        Process p = pb.start();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within 180 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted");
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        long cpuAfter = TreeCpu.millis(masterPid) + minionPids.stream().mapToLong(TreeCpu::millis).sum() + TreeCpu.waitedChildrenMillis();
        String text = Files.readString(out);
        for (String id : ids) {
            if (!text.contains("\"" + id + "\"")) {
                throw new IOException(command.get(0) + " run did not return " + id + " (exit " + p.exitValue() + "); see " + out);
            }
        }
        return new Run(wall, (cpuAfter - cpuBefore) / 1000.0);
    }

    private static void awaitJsalt(MasterProcess master, List<String> ids, Path root) throws IOException {
        try (JobClient client = new JobClient(master.config())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(180 + 3L * ids.size()).toNanos();
            while (client.gather(client.publish("*", "test.ping", List.of()), Duration.ofSeconds(5)).size() < ids.size()) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("not every jsalt-minion answered; see " + root.resolve("console"));
                }
                MasterProcess.pause(500);
            }
        }
    }

    /** Until one {@code salt '*' test.ping} names every salt-minion (they sign in within seconds each, slower under load). */
    private static void awaitSalt(SaltProcesses salt, List<String> ids, Path root) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(300 + 5L * ids.size()).toNanos();
        Path out = root.resolve("salt-warm-up.out");
        while (true) {
            try {
                timed(salt.saltCommand("--out", "json", "--static", "-t", "10", "*", "test.ping"), null, out, salt.masterPid(), List.of(), ids);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("not every salt-minion answered within " + (300 + 5 * ids.size()) + " s; see " + out);
                }
                MasterProcess.pause(1000);
            }
        }
    }

    private static long ms(Object seconds) {
        return Math.round((Double) seconds * 1000);
    }

    private static String ratio(Object r) {
        return String.format(java.util.Locale.ROOT, "%.2f", (Double) r);
    }

    private static List<Double> rounded(double[] values) {
        return Arrays.stream(values).map(VsSalt::round2).boxed().toList();
    }

    private static double round2(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
