package io.jsalt.bench.api;

import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.ProcSample;
import io.jsalt.bench.report.Latencies;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.scenario.BenchOptions;
import io.jsalt.bench.scenario.ScenarioResult;
import io.jsalt.bench.swarm.KeyCache;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * {@code jsalt-bench api}: the REST API under load, jsalt-api + jsalt-master against salt-api + salt-master
 * 3006.8 on the same machine, one side after the other, each with 10 minions of its own kind. Two measures:
 * <ul>
 *   <li><b>lowstate</b>: {@code POST /} with {@code [{"client": "local", "tgt": "*", "fun": "test.ping"}]} in a
 *   closed loop by 1 and by 4 clients for the run's seconds: requests per second, latency, answers missing a
 *   minion, and the CPU time the API and the master (with its children) used per request (/proc);</li>
 *   <li><b>events</b>: 50 {@code GET /events} streams open, then rounds of one {@code local_async} test.ping:
 *   from the publish request to each stream's reading of each minion's {@code salt/job/<jid>/ret/<id>} line
 *   (500 deliveries a round), and the last delivery of each round.</li>
 * </ul>
 * The salt side runs only when {@code ../shared/salt/salt} is beside the jsalt home.
 */
public final class ApiLoad {
    static final int MINIONS = 10;
    static final int STREAMS = 50;
    private static final String PING = "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\",\"timeout\":30}]";
    private static final String ASYNC_PING = "[{\"client\":\"local_async\",\"tgt\":\"*\",\"fun\":\"test.ping\"}]";

    private ApiLoad() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        int seconds = o.quick() ? 10 : Math.min(o.seconds(), 60);
        int rounds = o.quick() ? 5 : 20;
        List<Map<String, Object>> sides = new ArrayList<>();
        String loadBefore = loadAverage();
        Path root = o.runDir("api");
        try (ApiStack jsalt = JsaltApiStack.start(root.resolve("j"), new KeyCache(o.cacheDir()), MINIONS)) {
            sides.add(measure(jsalt, seconds, rounds));
        }
        Path salt = o.jsaltHome() == null ? null : o.jsaltHome().resolve("../shared/salt/salt").normalize();
        if (salt != null && Files.isExecutable(salt)) {
            try (ApiStack real = SaltApiStack.start(salt, root.resolve("s"), MINIONS)) {
                sides.add(measure(real, seconds, rounds));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "api");
        json.put("minions", MINIONS);
        json.put("seconds", seconds);
        json.put("event_streams", STREAMS);
        json.put("event_rounds", rounds);
        json.put("load_before", loadBefore); // /proc/loadavg: other work on the machine moves every figure
        json.put("sides", sides);
        return new ScenarioResult("api", json, table(sides));
    }

    private static Map<String, Object> measure(ApiStack stack, int seconds, int rounds) throws Exception {
        ApiClient client = new ApiClient(stack.baseUrl());
        String token = ready(client, stack);
        for (int i = 0; i < 10; i++) {
            client.lowstate(token, PING, Duration.ofSeconds(60)); // warm-up
        }
        Map<String, Object> side = new LinkedHashMap<>();
        side.put("side", stack.name());
        side.put("load_at_start", loadAverage());
        for (int clients : List.of(1, 4)) {
            side.put("lowstate_" + clients + "_clients", lowstateLoad(client, token, stack, clients, seconds));
        }
        side.put("events", eventFanOut(client, token, stack, rounds));
        side.put("load_after", loadAverage());
        return side;
    }

    /** Logs in and waits until a ping through the API reaches every minion (minions sign in at their own pace). */
    private static String ready(ApiClient client, ApiStack stack) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        String token = null;
        while (System.nanoTime() < deadline) {
            if (token == null) {
                token = client.login();
            } else if (ApiClient.answered(client.lowstate(token, PING.replace("30}", "5}"), Duration.ofSeconds(30))) == MINIONS) {
                return token;
            }
            MasterProcess.pause(500);
        }
        throw new IOException(stack.name() + ": the API did not answer a ping of all " + MINIONS + " minions within 240 s");
    }

    private static Map<String, Object> lowstateLoad(ApiClient client, String token, ApiStack stack, int clients, int seconds)
            throws InterruptedException {
        Queue<Double> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger incomplete = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        long cpuBefore = cpu(stack.apiProcesses()) + cpu(stack.masterProcesses());
        long apiBefore = cpu(stack.apiProcesses());
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<String> r = client.lowstate(token, PING, Duration.ofSeconds(60));
                        latencies.add((System.nanoTime() - t0) / 1e6);
                        int n = ApiClient.answered(r);
                        if (n < 0) {
                            errors.incrementAndGet();
                        } else if (n < MINIONS) {
                            incomplete.incrementAndGet();
                        }
                    } catch (IOException e) {
                        errors.incrementAndGet();
                    }
                }
            }, "api-load-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        long cpuMs = cpu(stack.apiProcesses()) + cpu(stack.masterProcesses()) - cpuBefore;
        long apiMs = cpu(stack.apiProcesses()) - apiBefore;
        int n = latencies.size();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("requests", n);
        out.put("requests_per_s", Latencies.round(n / (double) seconds));
        out.put("latency_ms", Latencies.ofMillis(List.copyOf(latencies)).toMap());
        out.put("incomplete", incomplete.get());
        out.put("errors", errors.get());
        out.put("cpu_ms_per_request_api_and_master", n == 0 ? 0 : Latencies.round(cpuMs / (double) n));
        out.put("cpu_ms_per_request_api", n == 0 ? 0 : Latencies.round(apiMs / (double) n));
        return out;
    }

    private static Map<String, Object> eventFanOut(ApiClient client, String token, ApiStack stack, int rounds) throws IOException {
        List<Queue<ApiClient.Line>> lines = new ArrayList<>();
        List<CompletableFuture<HttpResponse<Stream<String>>>> streams = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            Queue<ApiClient.Line> q = ApiClient.newLines();
            lines.add(q);
            streams.add(client.events(token, q));
        }
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!lines.stream().allMatch(q -> q.stream().anyMatch(l -> l.text().startsWith("retry:")))) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(stack.name() + ": not every one of " + STREAMS + " event streams opened within 60 s");
                }
                MasterProcess.pause(50);
            }
            long apiBefore = cpu(stack.apiProcesses());
            List<Double> deliveries = new ArrayList<>();
            List<Double> lastOfRound = new ArrayList<>();
            int missing = 0;
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                String prefix = "tag: salt/job/" + ApiClient.jid(client.lowstate(token, ASYNC_PING, Duration.ofSeconds(30))) + "/ret/";
                long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (System.nanoTime() < until && !lines.stream().allMatch(q -> count(q, prefix) >= MINIONS)) {
                    MasterProcess.pause(20);
                }
                double last = 0;
                for (Queue<ApiClient.Line> q : lines) {
                    List<ApiClient.Line> seen = q.stream().filter(l -> l.text().startsWith(prefix)).toList();
                    missing += Math.max(0, MINIONS - seen.size());
                    for (ApiClient.Line l : seen) {
                        double ms = (l.nanos() - t0) / 1e6;
                        deliveries.add(ms);
                        last = Math.max(last, ms);
                    }
                }
                lastOfRound.add(last);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("streams", STREAMS);
            out.put("rounds", rounds);
            out.put("delivery_ms", Latencies.ofMillis(deliveries).toMap());
            out.put("last_delivery_ms", Latencies.ofMillis(lastOfRound).toMap());
            out.put("missing", missing);
            out.put("api_cpu_ms_per_round", Latencies.round((cpu(stack.apiProcesses()) - apiBefore) / (double) rounds));
            return out;
        } finally {
            for (CompletableFuture<HttpResponse<Stream<String>>> s : streams) {
                s.thenAccept(r -> r.body().close());
                s.cancel(true);
            }
        }
    }

    private static long count(Queue<ApiClient.Line> q, String prefix) {
        return q.stream().filter(l -> l.text().startsWith(prefix)).count();
    }

    /** CPU milliseconds used so far by these processes and all their descendants (Salt's master forks workers). */
    static long cpu(List<ProcessHandle> processes) {
        long total = 0;
        for (ProcessHandle p : processes) {
            total += ProcSample.of(p.pid()).cpuMillis();
            total += p.descendants().mapToLong(d -> ProcSample.of(d.pid()).cpuMillis()).sum();
        }
        return total;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    @SuppressWarnings("unchecked")
    private static String table(List<Map<String, Object>> sides) {
        TextTable t = new TextTable("side", "clients", "req/s", "p50 ms", "p99 ms", "incomplete", "CPU ms/req (api+master)");
        TextTable e = new TextTable("side", "deliveries p50 ms", "p99 ms", "last of round p50 ms", "missing", "api CPU ms/round");
        for (Map<String, Object> s : sides) {
            for (int clients : List.of(1, 4)) {
                Map<String, Object> l = (Map<String, Object>) s.get("lowstate_" + clients + "_clients");
                Map<String, Object> lat = (Map<String, Object>) l.get("latency_ms");
                t.row(s.get("side"), clients, l.get("requests_per_s"), lat.get("p50_ms"), lat.get("p99_ms"), l.get("incomplete"),
                        l.get("cpu_ms_per_request_api_and_master"));
            }
            Map<String, Object> ev = (Map<String, Object>) s.get("events");
            Map<String, Object> d = (Map<String, Object>) ev.get("delivery_ms");
            Map<String, Object> last = (Map<String, Object>) ev.get("last_delivery_ms");
            e.row(s.get("side"), d.get("p50_ms"), d.get("p99_ms"), last.get("p50_ms"), ev.get("missing"), ev.get("api_cpu_ms_per_round"));
        }
        return "POST / local test.ping on " + MINIONS + " minions\n" + t.render() + "\nGET /events, " + STREAMS
                + " streams, one local_async test.ping per round\n" + e.render();
    }
}
