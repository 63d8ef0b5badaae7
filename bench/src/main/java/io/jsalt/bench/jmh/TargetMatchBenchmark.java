package io.jsalt.bench.jmh;

import io.jsalt.transport.target.TargetMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Resolving a target over 10,000 minion ids, as the master does for every publish (glob, pcre, list). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TargetMatchBenchmark {
    private final List<String> ids = new ArrayList<>();
    private TargetMatcher glob;
    private TargetMatcher pcre;
    private TargetMatcher list;

    @Setup
    public void setUp() {
        for (int i = 0; i < 10_000; i++) {
            ids.add(String.format("web-%05d.dc%d.example.com", i, i % 3));
        }
        glob = TargetMatcher.of("glob", "web-0[0-4]*.dc1.*");
        pcre = TargetMatcher.of("pcre", "web-0[0-4]\\d+\\.dc1\\..*");
        List<String> some = new ArrayList<>();
        for (int i = 0; i < 10_000; i += 10) {
            some.add(ids.get(i));
        }
        list = TargetMatcher.of("list", some);
    }

    private static int count(TargetMatcher m, List<String> ids) {
        int n = 0;
        for (String id : ids) {
            if (m.matches(id)) {
                n++;
            }
        }
        return n;
    }

    @Benchmark
    public int glob10000() {
        return count(glob, ids);
    }

    @Benchmark
    public int pcre10000() {
        return count(pcre, ids);
    }

    @Benchmark
    public int list1000Of10000() {
        return count(list, ids);
    }
}
