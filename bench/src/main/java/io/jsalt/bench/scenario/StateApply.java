package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.JavaProcess;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.MinionProcesses;
import io.jsalt.bench.harness.ProcessTreeCpu;
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
import java.util.stream.Stream;

/**
 * Scenario "states": {@code state.apply} of one SLS of N {@code file.managed} Jinja templates (issue 16: N = 200),
 * on one jsalt-minion process and on one real salt-minion 3006.8 joined to the same jsalt master, one after the
 * other on the same machine and tree: the first run (every file written) and the no-change run, each timed from
 * the publication to the return's arrival at the master. Without ../shared/salt beside the jsalt home, only the
 * jsalt minion runs.
 */
public final class StateApply {
    static final String JSALT_ID = "bench-00000";
    static final String SALT_ID = "sm1";

    private StateApply() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("templates", "minion", "first run ms", "first run CPU ms", "no-change run ms",
                "no-change CPU ms", "files");
        for (int n : o.sizes()) {
            for (Map<String, Object> r : runOne(o, n)) {
                rows.add(r);
                table.row(n, r.get("minion"), r.get("first_ms"), r.get("first_cpu_ms"), r.get("no_change_ms_median"),
                        r.get("no_change_cpu_ms_median"), r.get("files"));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "states");
        json.put("results", rows);
        return new ScenarioResult("states", json, table.render());
    }

    private static List<Map<String, Object>> runOne(BenchOptions o, int n) throws IOException {
        Path root = o.runDir("states-" + n);
        writeTree(root.resolve("srv/jsalt"), n);
        Path salt = SaltInstall.find(o.jsaltHome());
        boolean withSalt = salt != null;
        List<String> config = new ArrayList<>(List.of("worker_threads: " + o.workerThreads(), "auto_accept: True"));
        List<Map<String, Object>> out = new ArrayList<>();
        try (MasterProcess master = new MasterProcess(root, o.masterJvm(), config)) {
            master.start();
            try (MinionProcesses jsalt = MinionProcesses.start(master, root, new KeyCache(o.cacheDir()), 1, o.minionJvm());
                    JobClient client = new JobClient(master.config())) {
                awaitPing(client, JSALT_ID, root);
                out.add(measure(client, JSALT_ID, jsalt.processes().get(0).pid(),
                        root.resolve("var/cache/jsalt/" + JSALT_ID + "/bench"), n, o));
                if (withSalt) {
                    Process minion = startSaltMinion(salt, master, root);
                    try {
                        awaitPing(client, SALT_ID, root);
                        out.add(measure(client, SALT_ID, minion.pid(), root.resolve("s/var/cache/salt/minion/bench"), n, o));
                    } finally {
                        JavaProcess.stop(minion, 10);
                    }
                }
            }
        }
        return out;
    }

    /** One template used N times, each with its own context, as a formula's loop would. */
    static void writeTree(Path fileRoot, int n) throws IOException {
        Files.createDirectories(fileRoot.resolve("bench"));
        Files.writeString(fileRoot.resolve("bench/item.conf.j2"), """
                # item {{ i }} of {{ grains['id'] }}
                name = item-{{ i }}
                port = {{ 8000 + i }}
                {% for k in range(5) %}key{{ k }} = {{ i * k }}
                {% endfor %}""");
        StringBuilder sls = new StringBuilder("{% set root = opts['cachedir'] ~ '/bench' %}\n");
        sls.append("{% for i in range(").append(n).append(") %}\n");
        sls.append("""
                bench_item_{{ i }}:
                  file.managed:
                    - name: {{ root }}/item-{{ i }}.conf
                    - source: salt://bench/item.conf.j2
                    - template: jinja
                    - makedirs: True
                    - context:
                        i: {{ i }}
                {% endfor %}
                """);
        Files.writeString(fileRoot.resolve("bench/init.sls"), sls.toString());
    }

    /** Wall time from publication to return, and the CPU time the minion's whole process tree spent meanwhile. */
    private static Map<String, Object> measure(JobClient client, String id, long pid, Path written, int n, BenchOptions o)
            throws IOException {
        long cpu0 = ProcessTreeCpu.millis(pid);
        double first = applyMillis(client, id);
        long firstCpu = ProcessTreeCpu.millis(pid) - cpu0;
        long files = count(written);
        int rounds = o.quick() ? 3 : 5;
        double[] again = new double[rounds];
        double[] againCpu = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long c = ProcessTreeCpu.millis(pid);
            again[i] = applyMillis(client, id);
            againCpu[i] = ProcessTreeCpu.millis(pid) - c;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("n", n);
        r.put("minion", id.equals(SALT_ID) ? "salt-minion 3006.8" : "jsalt-minion");
        r.put("first_ms", Latencies.round(first));
        r.put("no_change_ms", java.util.Arrays.stream(again).map(Latencies::round).boxed().toList());
        r.put("no_change_ms_median", Latencies.round(FanOut.median(again)));
        r.put("first_cpu_ms", firstCpu);
        r.put("no_change_cpu_ms", java.util.Arrays.stream(againCpu).mapToLong(d -> (long) d).boxed().toList());
        r.put("no_change_cpu_ms_median", (long) FanOut.median(againCpu));
        r.put("files", files);
        return r;
    }

    private static double applyMillis(JobClient client, String id) throws IOException {
        JobClient.Published p = client.publish(id, "state.apply", List.of("bench"));
        Map<String, Long> got = client.gather(p, Duration.ofSeconds(600));
        if (!got.containsKey(id)) {
            throw new IOException(id + " did not return state.apply within 600 s");
        }
        return (got.get(id) - p.sentNanos()) / 1e6;
    }

    private static long count(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    static void awaitPing(JobClient client, String id, Path root) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            JobClient.Published p = client.publish(id, "test.ping", List.of());
            if (!client.gather(p, Duration.ofSeconds(3)).isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(id + " did not answer test.ping; see " + root.resolve("console"));
            }
            if (p.minions().isEmpty()) {
                MasterProcess.pause(500); // its key is not accepted yet: the master answers at once, with no minion
            }
        }
    }

    static Process startSaltMinion(Path salt, MasterProcess master, Path root) throws IOException {
        Path dir = root.resolve("s");
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/minion"), String.join("\n", "root_dir: " + dir, "id: " + SALT_ID,
                "master: 127.0.0.1", "master_port: " + master.retPort(), "publish_port: " + master.publishPort(),
                "enable_fqdns_grains: False", "acceptance_wait_time: 1", "log_level_logfile: warning") + "\n");
        Files.createDirectories(root.resolve("console"));
        return new ProcessBuilder(salt.toString(), "salt-minion", "-c", dir.resolve("conf").toString(), "--disable-keepalive")
                .redirectErrorStream(true).redirectOutput(root.resolve("console/salt-minion.out").toFile()).start();
    }
}
