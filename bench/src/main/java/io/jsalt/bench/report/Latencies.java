package io.jsalt.bench.report;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Summary of a set of latencies in milliseconds: count, min, p50, p95, p99, max, mean. Percentiles are
 * nearest-rank (the smallest value with at least p% of the values at or below it), so every reported
 * figure is one that was measured.
 */
public record Latencies(int count, double min, double p50, double p95, double p99, double max, double mean) {
    public static final Latencies NONE = new Latencies(0, 0, 0, 0, 0, 0, 0);

    public static Latencies ofMillis(Collection<Double> values) {
        return ofMillis(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    public static Latencies ofMillis(double[] values) {
        if (values.length == 0) {
            return NONE;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        double sum = 0;
        for (double d : v) {
            sum += d;
        }
        return new Latencies(v.length, v[0], rank(v, 50), rank(v, 95), rank(v, 99), v[v.length - 1], sum / v.length);
    }

    /** Nearest-rank percentile of sorted values. */
    static double rank(double[] sorted, double percent) {
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", count);
        m.put("min_ms", round(min));
        m.put("p50_ms", round(p50));
        m.put("p95_ms", round(p95));
        m.put("p99_ms", round(p99));
        m.put("max_ms", round(max));
        m.put("mean_ms", round(mean));
        return m;
    }

    public static double round(double v) {
        return Math.round(v * 10.0) / 10.0;
    }
}
