package io.jsalt.bench;

import io.jsalt.bench.api.ApiLoad;
import io.jsalt.bench.scenario.BenchOptions;
import io.jsalt.bench.scenario.Failover;
import io.jsalt.bench.scenario.FanOut;
import io.jsalt.bench.scenario.Jmh;
import io.jsalt.bench.scenario.Memory;
import io.jsalt.bench.scenario.PgLookup;
import io.jsalt.bench.scenario.MinionCpu;
import io.jsalt.bench.scenario.MasterCapacity;
import io.jsalt.bench.scenario.VsSalt;
import io.jsalt.bench.scenario.ProcessFanOut;
import io.jsalt.bench.scenario.RestartStorm;
import io.jsalt.bench.scenario.ScenarioResult;
import io.jsalt.bench.scenario.SignInStorm;
import io.jsalt.bench.scenario.StateApply;
import io.jsalt.bench.scenario.Supervise;
import io.jsalt.bench.scenario.SustainedLoad;
import io.jsalt.bench.swarm.KeyCache;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Scenario names to their runs, with each one's default N (full, and --quick). */
final class Scenarios {
    private Scenarios() {
    }

    static ScenarioResult run(String name, BenchOptions o) throws Exception {
        return switch (name) {
            case "signin" -> SignInStorm.run(sized(o, List.of(1000, 5000, 10000), List.of(200)));
            case "fanout" -> FanOut.run(sized(o, List.of(1, 10, 100, 1000, 5000, 10000), List.of(1, 10, 100, 300)));
            case "fanout-procs" -> ProcessFanOut.run(sized(o, List.of(1, 50), List.of(1, 10)));
            case "sustained" -> SustainedLoad.run(sized(o, List.of(1000), List.of(200)));
            case "restart" -> RestartStorm.run(sized(o, List.of(1000), List.of(200)));
            case "failover" -> Failover.run(sized(o, List.of(100), List.of(20)));
            case "memory" -> Memory.run(sized(o, List.of(1000), List.of(500)));
            case "states" -> StateApply.run(sized(o, List.of(200), List.of(200)));
            case "supervise" -> Supervise.run(sized(o, List.of(200), List.of(50)));
            case "master-capacity" -> MasterCapacity.run(sized(o, List.of(1000), List.of(200)));
            case "vs-salt" -> VsSalt.run(sized(o, List.of(1, 10, 40), List.of(1, 10)));
            case "minion-cpu" -> MinionCpu.run(sized(o, List.of(1000), List.of(200)));
            case "jmh" -> Jmh.run(o);
            case "api" -> ApiLoad.run(o);
            case "keys" -> keys(sized(o, List.of(10000), List.of(500)));
            case "pg-lookup" -> PgLookup.run(sized(o, List.of(1_000_000), List.of(100_000)));
            default -> throw new IllegalArgumentException("unknown scenario: " + name);
        };
    }

    /** Makes the cached key pairs ahead of time (a 10,000-minion swarm needs minutes of RSA key generation). */
    private static ScenarioResult keys(BenchOptions o) {
        int n = o.sizes().stream().mapToInt(Integer::intValue).max().orElse(0);
        int made = new KeyCache(o.cacheDir()).ensure(n, Runtime.getRuntime().availableProcessors());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "keys");
        json.put("keys", n);
        json.put("made", made);
        json.put("cache", o.cacheDir().toString());
        return new ScenarioResult("keys", json, "key pairs: " + n + " (" + made + " made now) in " + o.cacheDir() + "\n");
    }

    private static BenchOptions sized(BenchOptions o, List<Integer> full, List<Integer> quick) {
        return o.sizes().isEmpty() ? o.withSizes(o.quick() ? quick : full) : o;
    }
}
