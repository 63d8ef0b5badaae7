package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.Swarm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Failover time: N real minions with {@code master: [m1, m2]}, {@code master_type: failover} and
 * {@code master_alive_interval: 1}, signed in to m1; m1 is killed (SIGKILL). The time from the kill until every
 * minion has answered a {@code test.ping} published on m2 (one ping a second, each minion counted at its first
 * answer), and until every one has signed in to m2. The two masters share their key pair and the minions' keys
 * are accepted on both, as Salt's multi-master is set up by hand. What it costs: up to master_alive_interval
 * to notice, a sign-in to m2 (spread by nothing: each minion moves at once), then the next ping.
 */
public final class Failover {
    private static final int ALIVE_INTERVAL_S = 1;

    private Failover() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("N", "alive interval s", "all signed in to m2 s", "all answer m2 s", "answered");
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n);
            rows.add(r);
            table.row(n, ALIVE_INTERVAL_S, r.get("all_signed_in_s"), r.get("all_answer_s"), r.get("answered") + "/" + n);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "failover");
        json.put("master_alive_interval_s", ALIVE_INTERVAL_S);
        json.put("results", rows);
        return new ScenarioResult("failover", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n) throws IOException {
        Path root = o.runDir("failover-" + n);
        List<String> config = new ArrayList<>(List.of("worker_threads: " + o.workerThreads()));
        if (!o.signReturns()) {
            config.add("require_minion_sign_messages: False");
        }
        try (MasterProcess m1 = new MasterProcess(root.resolve("m1"), o.masterJvm(), config);
             MasterProcess m2 = new MasterProcess(root.resolve("m2"), o.masterJvm(), config)) {
            m1.start();
            Files.createDirectories(m2.pkiDir()); // Salt's multi-master: one key pair for every master
            for (String file : List.of("master.pem", "master.pub")) {
                Files.copy(m1.pkiDir().resolve(file), m2.pkiDir().resolve(file));
            }
            m2.start();
            try (Swarm swarm = Swarm.launch(new Swarm.Options(n, o.jvmsFor(n), "real", o.reauthDelay(), o.signReturns(), o.swarmJvm()),
                    m1, m2, root, o.cacheDir())) {
                swarm.start();
                long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(120, n / 10)).toNanos();
                while (swarm.signedIn() < n) {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("not all minions signed in to m1: " + swarm.signedIn() + " of " + n);
                    }
                    Fleet.pause(100);
                }
                try (JobClient warm = new JobClient(m1.config())) {
                    JobClient.Published p = warm.publish("*", "test.ping", List.of());
                    warm.gather(p, Duration.ofSeconds(30));
                }
                return measure(m1, m2, swarm, n);
            }
        }
    }

    private static Map<String, Object> measure(MasterProcess m1, MasterProcess m2, Swarm swarm, int n) throws IOException {
        long t0 = System.currentTimeMillis();
        long t0n = System.nanoTime();
        m1.kill();
        Map<String, Long> first = new HashMap<>();
        long deadline = t0n + Duration.ofSeconds(Math.max(90, n / 5)).toNanos();
        try (JobClient client = new JobClient(m2.config())) {
            List<JobClient.Published> pings = new ArrayList<>();
            while (first.size() < n && System.nanoTime() < deadline) {
                pings.add(client.publish("*", "test.ping", List.of()));
                Fleet.pause(1000);
                for (JobClient.Published p : pings) {
                    client.arrivedSoFar(p.jid()).forEach((id, at) -> first.merge(id, at, Math::min));
                }
            }
            pings.forEach(p -> client.forget(p.jid()));
        }
        long[] signIns = swarm.signInsSince(t0);
        long lastSignIn = signIns.length == 0 ? t0 : signIns[signIns.length - 1];
        long lastAnswer = first.values().stream().mapToLong(Long::longValue).max().orElse(t0n);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("n", n);
        r.put("signed_in_to_m2", signIns.length);
        r.put("all_signed_in_s", Latencies.round((lastSignIn - t0) / 1000.0));
        r.put("answered", first.size());
        r.put("all_answer_s", Latencies.round((lastAnswer - t0n) / 1e9));
        return r;
    }
}
