package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobCacheReader;
import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.PeakWatch;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 3: {@code test.ping} to all N minions at a fixed rate for T seconds. Returns per second,
 * latency percentiles over every return, and lost returns: expected (minions x jobs) minus the returns
 * the master stored, read from its job cache after a drain period, never from the events alone.
 */
public final class SustainedLoad {
    private SustainedLoad() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("N", "jobs/s", "s", "jobs", "returns/s", "p50 ms", "p95 ms", "p99 ms", "lost (job cache)", "master CPU %",
                "master CPU ms/1000 returns", "master RSS MiB");
        for (int n : o.sizes()) {
            Map<String, Object> r = runOne(o, n);
            rows.add(r);
            @SuppressWarnings("unchecked")
            Map<String, Object> lat = (Map<String, Object>) r.get("latency");
            table.row(n, o.rate(), o.seconds(), r.get("jobs"), r.get("returns_per_s"), lat.get("p50_ms"), lat.get("p95_ms"), lat.get("p99_ms"),
                    r.get("lost_returns"), r.get("master_cpu_percent"), r.get("master_cpu_ms_per_1000_returns"), r.get("master_rss_peak_mib"));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "sustained");
        json.put("job_cache", o.jobCacheDsn() == null ? "sqlite" : "postgres");
        json.put("rate_jobs_per_s", o.rate());
        json.put("seconds", o.seconds());
        json.put("results", rows);
        return new ScenarioResult("sustained", json, table.render());
    }

    private static Map<String, Object> runOne(BenchOptions o, int n) throws Exception {
        try (Fleet fleet = Fleet.launch(o, "sustained", n, o.jobCacheConfig())) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("n", n);
            if (!fleet.startAndSignIn(Duration.ofSeconds(Math.max(120, n / 20)))) {
                throw new IOException("not all minions signed in: " + fleet.swarm.signedIn() + " of " + n);
            }
            try (JobClient client = new JobClient(fleet.master.config()); PeakWatch peak = new PeakWatch(fleet.master.pid())) {
                fleet.warmUp(client, 3);
                ProcSample before = fleet.master.sample();
                List<JobClient.Published> jobs = new ArrayList<>();
                long periodNanos = (long) (1e9 / o.rate());
                long start = System.nanoTime();
                long end = start + Duration.ofSeconds(o.seconds()).toNanos();
                long next = start;
                int behind = 0;
                // publish on schedule; returns pile up in the event client's queue meanwhile (it reads on its own thread)
                while (next < end) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        // a fixed publish rate is what this scenario measures: wait for the next slot
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    } else if (wait < -periodNanos) {
                        behind++;
                    }
                    jobs.add(client.publish("*", "test.ping", List.of()));
                    next += periodNanos;
                }
                long published = System.nanoTime();
                List<Double> latencies = new ArrayList<>();
                long lastArrival = start;
                int eventsSeen = 0;
                for (JobClient.Published job : jobs) {
                    Map<String, Long> got = client.gather(job, Duration.ofSeconds(30));
                    eventsSeen += got.size();
                    for (long at : got.values()) {
                        latencies.add((at - job.sentNanos()) / 1e6);
                        lastArrival = Math.max(lastArrival, at);
                    }
                }
                ProcSample after = fleet.master.sample();
                Map<String, Integer> stored = JobCacheReader.of(fleet.master.config()).returnsPerJob("");
                long expected = 0;
                long inCache = 0;
                for (JobClient.Published job : jobs) {
                    expected += job.minions().size();
                    inCache += Math.min(job.minions().size(), stored.getOrDefault(job.jid(), 0));
                }
                double span = (lastArrival - start) / 1e9;
                r.put("jobs", jobs.size());
                r.put("publish_fell_behind", behind);
                r.put("publish_phase_s", Latencies.round((published - start) / 1e9));
                r.put("expected_returns", expected);
                r.put("returns_in_job_cache", inCache);
                r.put("returns_seen_as_events", eventsSeen);
                r.put("lost_returns", expected - inCache);
                r.put("returns_per_s", Latencies.round(eventsSeen / Math.max(0.001, span)));
                r.put("latency", Latencies.ofMillis(latencies).toMap());
                r.put("master_cpu_percent", Latencies.round(100.0 * (after.cpuMillis() - before.cpuMillis()) / 1000.0 / Math.max(0.001, span)));
                // CPU per return: a figure that load from other processes on the machine does not inflate as much as wall time
                r.put("master_cpu_ms_per_1000_returns", Latencies.round(1000.0 * (after.cpuMillis() - before.cpuMillis())
                        / Math.max(1, eventsSeen)));
                r.put("master_rss_peak_mib", Latencies.round(peak.peak().rssMiB()));
                r.put("master_fds_peak", peak.peak().fds());
            }
            return r;
        }
    }
}
