package io.jsalt.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PerSecondTest {
    @Test
    void countsTheBusiestSlidingSecond() {
        long[] at = {5_000, 100, 1_050, 1_100, 1_900, 2_200, 2_950};

        // 100, 1,050 and 1,100 fall within one second, as do 1,050, 1,100 and 1,900; no second holds four
        assertThat(PerSecond.peak(at)).isEqualTo(3);
    }

    @Test
    void instantsOneSecondApartAreInDifferentWindows() {
        assertThat(PerSecond.peak(new long[] {0, 1_000, 2_000})).isEqualTo(1);
    }

    @Test
    void nothingIsZero() {
        assertThat(PerSecond.peak(new long[0])).isZero();
    }
}
