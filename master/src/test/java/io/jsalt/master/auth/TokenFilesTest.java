package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFilesTest {
    @TempDir
    Path dir;

    /** A clock the test moves by hand, to the millisecond. */
    static final class HandClock extends Clock {
        final AtomicLong millis = new AtomicLong(1_795_573_062_079L);

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
    }

    @Test
    void aTokenLivesUntilJustBeforeItsExpiryAndIsRefusedAtTheExactInstant() {
        HandClock clock = new HandClock();
        TokenFiles tokens = new TokenFiles(dir, clock, () -> 60);
        EauthToken token = tokens.create("thatch", "file");
        assertThat(token.expire() - token.start()).isEqualTo(60.0);

        clock.millis.addAndGet(59_999);
        assertThat(tokens.find(token.token())).contains(token);
        clock.millis.addAndGet(1);
        assertThat(tokens.find(token.token())).isEmpty();
        assertThat(dir.resolve(token.token())).doesNotExist();
    }

    @Test
    void aNewLoginSweepsTheExpiredTokensAndLeavesTheLiveOnes() {
        HandClock clock = new HandClock();
        TokenFiles tokens = new TokenFiles(dir, clock, () -> 60);
        EauthToken old = tokens.create("a", "file");
        clock.millis.addAndGet(30_000);
        EauthToken live = tokens.create("b", "file");
        clock.millis.addAndGet(30_000);

        EauthToken fresh = tokens.create("c", "file");

        assertThat(dir.resolve(old.token())).doesNotExist();
        assertThat(dir.resolve(live.token())).exists();
        assertThat(dir.resolve(fresh.token())).exists();
    }

    @Test
    void aTokenFileWhoseDataNamesAnotherTokenOrIsGarbageIsNotALogin() throws Exception {
        TokenFiles tokens = new TokenFiles(dir, Clock.systemUTC(), () -> 60);
        EauthToken real = tokens.create("thatch", "file");
        String forged = "b".repeat(64);
        Files.copy(dir.resolve(real.token()), dir.resolve(forged));
        Files.writeString(dir.resolve("c".repeat(64)), "garbage");

        assertThat(tokens.find(forged)).isEmpty();
        assertThat(tokens.find("c".repeat(64))).isEmpty();
        assertThat(tokens.find(real.token())).isPresent();
        assertThat(tokens.find(42)).isEmpty();
        assertThat(tokens.revoke("../" + real.token())).isFalse();
    }
}
