package io.jsalt.master.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.keys.PendingKeyLimit.Verdict;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PendingKeyLimitTest {
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final PendingKeyLimit limit = new PendingKeyLimit(nanos::get);

    @Test
    void refusesOnceMaxPendingKeysWait() {
        assertThat(limit.admit(9, 10, 100)).isEqualTo(Verdict.ADMITTED);
        assertThat(limit.admit(10, 10, 100)).isEqualTo(Verdict.TOO_MANY_PENDING);
        assertThat(limit.admit(1_000_000, 0, 100)).isEqualTo(Verdict.ADMITTED); // 0: no cap
    }

    @Test
    void takesABurstOfAMinutesWorthThenRefillsWithTime() {
        for (int i = 0; i < 6; i++) {
            assertThat(limit.admit(0, 0, 6)).isEqualTo(Verdict.ADMITTED);
        }
        assertThat(limit.admit(0, 0, 6)).isEqualTo(Verdict.TOO_FAST);

        nanos.addAndGet(10_000_000_000L); // 10 s: one more key at 6 a minute
        assertThat(limit.admit(0, 0, 6)).isEqualTo(Verdict.ADMITTED);
        assertThat(limit.admit(0, 0, 6)).isEqualTo(Verdict.TOO_FAST);
    }
}
