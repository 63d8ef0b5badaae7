package io.jsalt.bench.scenario;

import io.jsalt.bench.report.TextTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** The JMH microbenchmarks (package io.jsalt.bench.jmh), one fork each; --quick takes shorter iterations. */
public final class Jmh {
    private Jmh() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        Options options = new OptionsBuilder()
                .include("io\\.jsalt\\.bench\\.jmh\\..*")
                .forks(1)
                .warmupIterations(o.quick() ? 1 : 3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(o.quick() ? 3 : 5)
                .measurementTime(TimeValue.seconds(o.quick() ? 1 : 2))
                .jvmArgsAppend("-Xmx512m")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        TextTable table = new TextTable("benchmark", "µs/op", "± (99.9%)");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark().replace("io.jsalt.bench.jmh.", "");
            double score = r.getPrimaryResult().getScore();
            double error = r.getPrimaryResult().getScoreError();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("benchmark", name);
            row.put("us_per_op", round(score));
            row.put("error_us", Double.isNaN(error) ? null : round(error));
            row.put("unit", r.getPrimaryResult().getScoreUnit());
            rows.add(row);
            table.row(name, round(score), Double.isNaN(error) ? "n/a (too few iterations)" : round(error));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "jmh");
        json.put("results", rows);
        return new ScenarioResult("jmh", json, table.render());
    }

    private static double round(double v) {
        return v >= 100 ? Math.round(v) : Math.round(v * 100) / 100.0;
    }
}
