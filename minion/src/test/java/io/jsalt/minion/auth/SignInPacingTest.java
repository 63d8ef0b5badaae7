package io.jsalt.minion.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SignInPacingTest {
    private static SignInPacing pacing(int reconDefault, int reconMax, boolean randomize, int reauthDelay, long seed) {
        return new SignInPacing(new SignInPacing.Settings(2, 16, reconDefault, reconMax, randomize, reauthDelay), new Random(seed));
    }

    @Test
    void withoutRandomizeTheReconnectWaitDoublesUpToReconMax() {
        SignInPacing p = pacing(1000, 10_000, false, 10, 1);

        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            waits.add(p.afterFailureMs());
        }

        assertThat(waits).containsExactly(1000L, 2000L, 4000L, 8000L, 10_000L, 10_000L, 10_000L);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomizedReconnectWaitsStayWithinReconDefaultAndReconDefaultPlusTheCeiling(long seed) {
        SignInPacing p = pacing(1000, 10_000, true, 10, seed);
        for (int round = 0; round < 300; round++) {
            for (int failure = 0; failure < 8; failure++) {
                long ceiling = Math.min(10_000, 1000L << failure);
                assertThat(p.afterFailureMs()).as("failure %d", failure).isBetween(1000L, 1000L + ceiling);
            }
            p.signedIn();
        }
        assertThat(p.maxAfterFailureMs()).isEqualTo(11_000);
    }

    @Test
    void randomizedWaitsAreSpreadNotAllTheSame() {
        SignInPacing p = pacing(1000, 10_000, true, 10, 5);
        long[] firstWaits = LongStream.range(0, 500).map(i -> {
            long w = p.afterFailureMs();
            p.answered();
            return w;
        }).toArray();

        assertThat(LongStream.of(firstWaits).distinct().count()).isGreaterThan(300);
        assertThat(LongStream.of(firstWaits).min().orElseThrow()).isLessThan(1100);
        assertThat(LongStream.of(firstWaits).max().orElseThrow()).isGreaterThan(1900);
    }

    @Test
    void anAnswerOrASignInStartsTheBackoffOver() {
        SignInPacing p = pacing(500, 60_000, false, 10, 1);
        p.afterFailureMs();
        p.afterFailureMs();
        p.answered();
        assertThat(p.afterFailureMs()).isEqualTo(500);
        p.afterFailureMs();
        p.signedIn();
        assertThat(p.afterFailureMs()).isEqualTo(500);
    }

    @Test
    void reconMaxBelowReconDefaultMeansAFlatWait() {
        SignInPacing p = pacing(3000, 0, false, 10, 1);
        assertThat(List.of(p.afterFailureMs(), p.afterFailureMs(), p.afterFailureMs())).containsOnly(3000L);
    }

    @Test
    void thePendingWaitDoublesUpToItsMaximumAndRestartsAfterSignIn() {
        SignInPacing p = pacing(1000, 10_000, true, 10, 1);

        assertThat(List.of(p.whilePendingMs(), p.whilePendingMs(), p.whilePendingMs(), p.whilePendingMs(), p.whilePendingMs()))
                .containsExactly(2000L, 4000L, 8000L, 16_000L, 16_000L);
        p.signedIn();
        assertThat(p.whilePendingMs()).isEqualTo(2000L);
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void theReauthDelayCoversZeroToRandomReauthDelayUniformly(long seed) {
        SignInPacing p = pacing(1000, 10_000, true, 10, seed);
        long[] delays = LongStream.range(0, 5000).map(i -> p.reauthDelayMs()).toArray();

        assertThat(LongStream.of(delays).boxed()).allMatch(d -> d >= 0 && d <= 10_000);
        int[] perSecond = new int[10];
        for (long d : delays) {
            perSecond[(int) Math.min(9, d / 1000)]++;
        }
        // 500 expected per second of the window: none empty, none holding a spike
        assertThat(java.util.stream.IntStream.of(perSecond).boxed()).allMatch(n -> n > 400 && n < 600);
    }

    @Test
    void aReauthDelayOfZeroMeansAtOnce() {
        assertThat(pacing(1000, 10_000, true, 0, 1).reauthDelayMs()).isZero();
    }
}
