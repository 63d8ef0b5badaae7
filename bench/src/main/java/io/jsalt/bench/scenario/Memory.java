package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.DaemonJvm;
import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: the master's RSS with no minion and with N signed-in minions that have answered a few
 * pings (per 1,000 minions), and one standalone {@code jsalt-minion} process's RSS at idle and after many
 * jobs, with bin/jsalt-minion's JVM options and with small-footprint ones.
 */
public final class Memory {
    /**
     * The smallest footprint found for a minion, beyond bin/jsalt-minion's defaults: a 32 MiB heap cap, small
     * thread stacks, bounded metaspace and code cache (too tight to ship: a large command output needs heap).
     */
    static final List<String> SMALLEST_MINION_JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xms8m", "-Xmx32m",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:MaxMetaspaceSize=64m", "-XX:ReservedCodeCacheSize=16m", "-Xshare:auto");

    private Memory() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "memory");
        TextTable table = new TextTable("what", "RSS MiB", "note");
        List<Map<String, Object>> masters = new ArrayList<>();
        for (int n : o.sizes()) {
            Map<String, Object> m = master(o, n);
            masters.add(m);
            table.row("master, 0 minions", m.get("rss_0_mib"), "after start, before the swarm");
            table.row("master, " + n + " minions", m.get("rss_n_mib"), "signed in, after 5 pings");
            table.row("master per 1,000 minions", m.get("rss_per_1000_mib"), "(RSS_N - RSS_0) / N x 1,000");
        }
        json.put("master", masters);
        int jobs = o.quick() ? 200 : 1000;
        List<Map<String, Object>> minions = new ArrayList<>();
        Map<String, List<String>> jvms = new LinkedHashMap<>();
        jvms.put("bin/jsalt-minion defaults", DaemonJvm.MINION);
        jvms.put("no JVM options", List.of());
        jvms.put("smallest options", SMALLEST_MINION_JVM);
        for (Map.Entry<String, List<String>> jvm : jvms.entrySet()) {
            Map<String, Object> m = minion(o, jvm.getKey(), jvm.getValue(), jobs);
            minions.add(m);
            table.row("jsalt-minion idle (" + jvm.getKey() + ")", m.get("rss_idle_mib"), String.join(" ", jvm.getValue()));
            table.row("jsalt-minion after " + jobs + " jobs (" + jvm.getKey() + ")", m.get("rss_after_jobs_mib"), "");
        }
        json.put("minion_process", minions);
        return new ScenarioResult("memory", json, table.render());
    }

    private static Map<String, Object> master(BenchOptions o, int n) throws IOException {
        try (Fleet fleet = Fleet.launch(o, "memory", n, List.of())) {
            Fleet.pause(3000);
            ProcSample zero = fleet.master.sample();
            if (!fleet.startAndSignIn(Duration.ofSeconds(Math.max(120, n / 20)))) {
                throw new IOException("not all minions signed in: " + fleet.swarm.signedIn() + " of " + n);
            }
            try (JobClient client = new JobClient(fleet.master.config())) {
                fleet.warmUp(client, 3);
                for (int i = 0; i < 4; i++) {
                    client.gather(client.publish("*", "test.ping", List.of()), Duration.ofSeconds(30));
                }
            }
            Fleet.pause(2000);
            ProcSample full = fleet.master.sample();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("n", n);
            m.put("master_jvm", o.masterJvm());
            m.put("rss_0_mib", Latencies.round(zero.rssMiB()));
            m.put("rss_n_mib", Latencies.round(full.rssMiB()));
            m.put("rss_per_1000_mib", Latencies.round((full.rssMiB() - zero.rssMiB()) / n * 1000));
            m.put("fds_n", full.fds());
            m.put("threads_n", full.threads());
            return m;
        }
    }

    /**
     * Through bin/jsalt-minion when it is built, as an operator starts one: its class path is the minion's jars,
     * not the benchmark's (which holds every module's); else the main class on this JVM's class path.
     */
    private static Process startMinion(BenchOptions o, List<String> jvm, Path conf, Path console) throws IOException {
        Path script = o.jsaltHome() == null ? null : o.jsaltHome().resolve("bin/jsalt-minion");
        if (script != null && Files.isRegularFile(script) && Files.isDirectory(o.jsaltHome().resolve("client-cli/target/lib"))) {
            return JavaProcess.startLauncher(script, jvm, List.of("-c", conf.toString()), console);
        }
        return JavaProcess.start(jvm, "io.jsalt.cli.daemon.MinionDaemon", List.of("-c", conf.toString()), console);
    }

    private static Map<String, Object> minion(BenchOptions o, String label, List<String> jvm, int jobs) throws Exception {
        Path root = o.runDir("memory-minion");
        KeyCache keys = new KeyCache(o.cacheDir());
        keys.ensure(1, 1);
        String id = KeyCache.id(0);
        try (MasterProcess master = new MasterProcess(root, o.masterJvm(), List.of("worker_threads: 2"))) {
            keys.preAccept(master.pkiDir(), List.of(id));
            master.start();
            Path pki = root.resolve("etc/jsalt/pki/" + id);
            Files.createDirectories(pki);
            Files.copy(keys.privateKey(id), pki.resolve("minion.pem"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(keys.publicKey(id), pki.resolve("minion.pub"), StandardCopyOption.REPLACE_EXISTING);
            Path conf = root.resolve("conf/" + id);
            Files.createDirectories(conf);
            Files.writeString(conf.resolve("minion"), String.join("\n", "root_dir: " + root, "id: " + id, "master: 127.0.0.1",
                    "master_port: " + master.retPort(), "publish_port: " + master.publishPort(), "pki_dir: /etc/jsalt/pki/" + id,
                    "cachedir: /var/cache/jsalt/" + id, "log_file: /var/log/jsalt/" + id, "log_level: warning") + "\n");
            Process p = startMinion(o, jvm, conf, root.resolve("console/minion.out"));
            try (JobClient client = new JobClient(master.config())) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (client.gather(client.publish("*", "test.ping", List.of()), Duration.ofSeconds(2)).isEmpty()) {
                    if (System.nanoTime() > deadline || !p.isAlive()) {
                        throw new IOException("the minion process did not answer; see " + root.resolve("console/minion.out"));
                    }
                }
                Fleet.pause(5000);
                ProcSample idle = ProcSample.of(p.pid());
                int answered = 0;
                for (int i = 0; i < jobs; i++) {
                    answered += client.gather(client.publish("*", "test.ping", List.of()), Duration.ofSeconds(10)).size();
                }
                Fleet.pause(1000);
                ProcSample after = ProcSample.of(p.pid());
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("jvm", label);
                m.put("jvm_options", jvm);
                m.put("class_path_jars", classPathJars(p.pid()));
                m.put("rss_idle_mib", Latencies.round(idle.rssMiB()));
                m.put("rss_after_jobs_mib", Latencies.round(after.rssMiB()));
                m.put("jobs", jobs);
                m.put("answered", answered);
                m.put("threads", after.threads());
                m.put("fds", after.fds());
                return m;
            } finally {
                JavaProcess.stop(p, 15);
            }
        }
    }

    /** How many entries the minion's {@code -cp} has (its launcher's class path, or the benchmark's). */
    private static int classPathJars(long pid) {
        try {
            String[] args = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), java.nio.charset.StandardCharsets.UTF_8)
                    .split("\0");
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals("-cp")) {
                    return args[i + 1].split(java.io.File.pathSeparator).length;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }
}
