package io.jsalt.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    private final AtomicLong millis = new AtomicLong(1_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };

    @Test
    void anAddressIsStoppedAfterTooManyFailuresUntilTheOldestLeavesTheWindow() {
        LoginThrottle throttle = new LoginThrottle(clock, 3, 60);
        for (int i = 0; i < 3; i++) {
            assertThat(throttle.allows("10.0.0.1")).isTrue();
            throttle.failed("10.0.0.1");
            millis.addAndGet(1_000);
        }
        assertThat(throttle.allows("10.0.0.1")).isFalse();
        assertThat(throttle.allows("10.0.0.2")).as("another address").isTrue();
        millis.set(1_000_000L + 60_000 - 1);
        assertThat(throttle.allows("10.0.0.1")).isFalse();
        millis.set(1_000_000L + 60_000);
        assertThat(throttle.allows("10.0.0.1")).as("the first failure left the window").isTrue();
    }
}
