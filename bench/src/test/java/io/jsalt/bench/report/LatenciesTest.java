package io.jsalt.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatenciesTest {
    @Test
    void percentilesAreNearestRankSoEveryFigureWasMeasured() {
        double[] values = new double[100];
        for (int i = 0; i < 100; i++) {
            values[i] = 100 - i; // 100 .. 1, unsorted on purpose
        }

        Latencies l = Latencies.ofMillis(values);

        assertThat(l.count()).isEqualTo(100);
        assertThat(l.min()).isEqualTo(1);
        assertThat(l.p50()).isEqualTo(50);
        assertThat(l.p95()).isEqualTo(95);
        assertThat(l.p99()).isEqualTo(99);
        assertThat(l.max()).isEqualTo(100);
        assertThat(l.mean()).isEqualTo(50.5);
    }

    @Test
    void aSingleValueIsEveryPercentile() {
        Latencies l = Latencies.ofMillis(List.of(7.25));

        assertThat(List.of(l.min(), l.p50(), l.p95(), l.p99(), l.max())).containsOnly(7.25);
    }

    @Test
    void noValuesGiveZerosNotAnError() {
        assertThat(Latencies.ofMillis(new double[0])).isEqualTo(Latencies.NONE);
    }

    @Test
    void theHighPercentilesOfASmallSampleAreItsLargestValues() {
        Latencies l = Latencies.ofMillis(new double[] {3, 1, 2});

        assertThat(l.p50()).isEqualTo(2);
        assertThat(l.p95()).isEqualTo(3);
        assertThat(l.p99()).isEqualTo(3);
    }

    @Test
    void theMapRoundsToATenthOfAMillisecond() {
        assertThat(Latencies.ofMillis(new double[] {1.234, 5.678}).toMap())
                .containsEntry("count", 2).containsEntry("min_ms", 1.2).containsEntry("max_ms", 5.7).containsEntry("p50_ms", 1.2);
    }
}
