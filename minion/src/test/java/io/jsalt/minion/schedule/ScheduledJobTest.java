package io.jsalt.minion.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ScheduledJobTest {
    private static ScheduledJob job(long splayStart, long splayEnd, boolean runOnStart) {
        return new ScheduledJob("j", "test.ping", Duration.ofSeconds(60), Duration.ofSeconds(splayStart),
                Duration.ofSeconds(splayEnd), List.of(), Map.of(), runOnStart);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42})
    void theFirstRunWaitsASplayWithinItsBoundsAndUsesTheWholeRange(long seed) {
        Random random = new Random(seed);
        ScheduledJob job = job(5, 15, true);

        long[] delays = LongStream.range(0, 2000).map(i -> job.firstDelay(random).toMillis()).toArray();

        assertThat(LongStream.of(delays).boxed()).allMatch(d -> d >= 5_000 && d <= 15_000);
        assertThat(LongStream.of(delays).min().orElseThrow()).isLessThan(5_500);
        assertThat(LongStream.of(delays).max().orElseThrow()).isGreaterThan(14_500);
    }

    @Test
    void withoutSplayTheFirstRunIsImmediate() {
        assertThat(job(0, 0, true).firstDelay(new Random(7))).isEqualTo(Duration.ZERO);
    }

    @Test
    void withoutRunOnStartTheFirstRunAlsoWaitsOneInterval() {
        Random random = new Random(9);
        for (int i = 0; i < 200; i++) {
            assertThat(job(0, 10, false).firstDelay(random).toMillis()).isBetween(60_000L, 70_000L);
        }
    }

    @Test
    void kwargsTravelAsSaltsKwargMapAfterThePositionalArguments() {
        ScheduledJob job = new ScheduledJob("j", "test.arg", Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO,
                List.of("a", 1), Map.of("k", "v"), true);

        assertThat(job.wireArgs()).containsExactly("a", 1, Map.of("k", "v", "__kwarg__", true));
        assertThat(job(0, 0, true).wireArgs()).isEmpty();
    }
}
