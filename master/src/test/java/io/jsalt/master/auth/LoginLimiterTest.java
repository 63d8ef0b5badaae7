package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginLimiterTest {
    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };
    private final LoginLimiter limiter = new LoginLimiter(clock, () -> new LoginLimiter.Limits(3, 60));

    @Test
    void aUserNameIsRefusedAfterItsFailuresUntilTheOldestLeavesTheWindow() {
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.allows("thatch", "10.0.0." + i)).isTrue();
            limiter.failed("thatch", "10.0.0." + i);
            millis.addAndGet(10_000);
        }
        // three addresses, one name: the name is what is guessed at
        assertThat(limiter.allows("thatch", "10.0.0.9")).isFalse();
        assertThat(limiter.allows("deploy", "10.0.0.9")).isTrue();
        millis.set(1_000_000 + 60_000 - 1);
        assertThat(limiter.allows("thatch", "10.0.0.9")).isFalse();
        millis.set(1_000_000 + 60_000); // the first failure is exactly a window old
        assertThat(limiter.allows("thatch", "10.0.0.9")).isTrue();
    }

    @Test
    void anAddressIsRefusedAfterFailuresForManyNames() {
        limiter.failed("a", "192.0.2.1");
        limiter.failed("b", "192.0.2.1");
        limiter.failed("c", "192.0.2.1");
        assertThat(limiter.allows("d", "192.0.2.1")).isFalse();
        assertThat(limiter.allows("d", "192.0.2.2")).isTrue();
    }

    @Test
    void clientsWithoutAVouchedAddressShareOneBucketSoSprayingNamesIsBoundedToo() {
        limiter.failed("a", null);
        limiter.failed("b", null);
        limiter.failed("c", null);
        assertThat(limiter.allows("d", null)).isFalse();
        assertThat(limiter.allows("d", "192.0.2.1")).isTrue();
    }
}
