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
    void anAccountsFailuresCountHoweverItsNameIsTyped() {
        limiter.failed("alice", "10.0.0.1");
        limiter.failed("Alice", "10.0.0.2");
        limiter.failed(" ALICE ", "10.0.0.3");
        // an LDAP directory takes every spelling for one account: none gets tries of its own
        assertThat(limiter.allows("alice", "10.0.0.9")).isFalse();
        assertThat(limiter.allows("aLiCe", "10.0.0.9")).isFalse();
        assertThat(limiter.allows("bob", "10.0.0.9")).isTrue();
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

    @Test
    void aGuesserWithManyAddressesCannotResetTheLimitOfTheNameTheyGuessAt() {
        LoginLimiter defaults = new LoginLimiter(clock, () -> LoginLimiter.Limits.DEFAULTS);
        for (int i = 0; i < 10; i++) {
            defaults.failed("admin", "198.51.100." + i);
        }
        assertThat(defaults.allows("admin", "203.0.113.1")).isFalse();
        // the same guesser, from 1,000 addresses of an IPv6 /64, each within its own 10 failures, other names
        int n = 0;
        for (int a = 0; a < 1000; a++) {
            for (int k = 0; k < 9; k++) {
                defaults.failed("x" + (n++), "2001:db8::" + Integer.toHexString(a));
            }
        }
        assertThat(defaults.allows("admin", "203.0.113.1")).isFalse();
        assertThat(defaults.tracked()).isEqualTo(LoginLimiter.MAX_KEYS);
    }

    @Test
    void whenTheTableIsFullKeysWhoseFailuresLeftTheWindowGoFirst() {
        limiter.failed("old", "192.0.2.1");
        millis.addAndGet(30_000);
        limiter.failed("thatch", "192.0.2.2");
        limiter.failed("thatch", "192.0.2.2");
        millis.addAndGet(30_000); // old's failure has left the window; thatch's two have not
        for (int i = 0; i < LoginLimiter.MAX_KEYS; i++) {
            limiter.failed("n" + i, "192.0.2.3");
        }
        assertThat(limiter.tracked()).isEqualTo(LoginLimiter.MAX_KEYS);
        limiter.failed("thatch", "192.0.2.4");
        assertThat(limiter.allows("thatch", "192.0.2.5")).as("thatch's count survived the flood").isFalse();
        assertThat(limiter.allows("n" + (LoginLimiter.MAX_KEYS - 1), "192.0.2.5")).isTrue();
    }
}
