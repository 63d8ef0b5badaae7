package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scenario 4: with N minions signed in, the master is restarted (SIGTERM, then started again on the same
 * keys and ports). The time from the stop until every minion has answered a {@code test.ping} again (one
 * ping a second, each minion counted at its first answer), the time until all signed in again, and the
 * peak sign-ins per second. The minions spread their re-sign-in over random_reauth_delay.
 * The stop is graceful (TERM): the master closes its sockets, so the minions see the disconnect at once.
 */
public final class RestartStorm {
    private RestartStorm() {
    }

    public static ScenarioResult run(BenchOptions o) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("N", "reauth delay s", "master down s", "all signed in s", "all answer s", "peak sign-ins/s", "answered");
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n);
            rows.add(r);
            table.row(n, o.reauthDelay(), r.get("master_down_s"), r.get("all_signed_in_s"), r.get("all_answer_s"), r.get("peak_sign_ins_per_s"),
                    r.get("answered") + "/" + n);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "restart");
        json.put("random_reauth_delay_s", o.reauthDelay());
        json.put("results", rows);
        return new ScenarioResult("restart", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n) throws IOException {
        try (Fleet fleet = Fleet.launch(o, "restart", n, List.of())) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("n", n);
            if (!fleet.startAndSignIn(Duration.ofSeconds(Math.max(120, n / 20)))) {
                throw new IOException("not all minions signed in: " + fleet.swarm.signedIn() + " of " + n);
            }
            try (JobClient warm = new JobClient(fleet.master.config())) {
                fleet.warmUp(warm, 5);
            }
            long t0 = System.currentTimeMillis();
            long t0n = System.nanoTime();
            fleet.master.restart();
            double downS = (System.nanoTime() - t0n) / 1e9;
            Set<String> answered = new HashSet<>();
            long lastNewAnswer = t0n;
            long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(90, o.reauthDelay() * 6L + n / 50)).toNanos();
            try (JobClient client = new JobClient(fleet.master.config())) {
                // a ping a second; a minion counts at its first return to any of them, however late it arrives
                List<JobClient.Published> pings = new ArrayList<>();
                Map<String, Long> first = new HashMap<>();
                while (first.size() < n && System.nanoTime() < deadline) {
                    pings.add(client.publish("*", "test.ping", List.of()));
                    Fleet.pause(1000);
                    for (JobClient.Published p : pings) {
                        client.arrivedSoFar(p.jid()).forEach((id, at) -> first.merge(id, at, Math::min));
                    }
                }
                answered.addAll(first.keySet());
                lastNewAnswer = first.values().stream().mapToLong(Long::longValue).max().orElse(t0n);
                pings.forEach(p -> client.forget(p.jid()));
            }
            long[] signIns = fleet.swarm.signInsSince(t0);
            long lastSignIn = signIns.length == 0 ? t0 : signIns[signIns.length - 1];
            r.put("master_down_s", Latencies.round(downS));
            r.put("signed_in_again", signIns.length);
            r.put("all_signed_in_s", Latencies.round((lastSignIn - t0) / 1000.0));
            r.put("answered", answered.size());
            r.put("all_answer_s", Latencies.round((lastNewAnswer - t0n) / 1e9));
            r.put("peak_sign_ins_per_s", PerSecond.peak(signIns));
            return r;
        }
    }
}
