package io.jsalt.bench.harness;

import java.util.List;

/**
 * The daemons' default JVM options, as {@code bin/jsalt-env} gives them to {@code bin/jsalt-master} and
 * {@code bin/jsalt-minion} (a test keeps the two in step), so the benchmark's daemons are the product's.
 */
public final class DaemonJvm {
    public static final List<String> MASTER = List.of("-XX:+UseG1GC", "-Xms64m");
    public static final List<String> MINION = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms8m", "-Xmx256m",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20");

    private DaemonJvm() {
    }
}
