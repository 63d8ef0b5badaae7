package io.jsalt.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.auth.AuthList;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenStoreTest {
    private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);
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

    @Test
    void aTokenLivesUntilJustBeforeItsExpiryAndDiesAtIt() {
        TokenStore store = new TokenStore(clock, 43_200);
        Token token = store.create("thatch", "file", new AuthList(List.of("test.*")));
        assertThat(token.expire() - token.start()).isEqualTo(43_200.0);
        millis.addAndGet(43_200_000L - 1);
        assertThat(store.find(token.token())).contains(token);
        millis.incrementAndGet();
        assertThat(store.find(token.token())).isEmpty();
        millis.decrementAndGet();
        assertThat(store.find(token.token())).as("an expired token is gone for good").isEmpty();
    }

    @Test
    void revokedTokensAreGoneAndOthersLive() {
        TokenStore store = new TokenStore(clock, 60);
        Token a = store.create("a", "file", new AuthList(List.of()));
        Token b = store.create("b", "file", new AuthList(List.of()));
        assertThat(store.revoke(a.token())).isTrue();
        assertThat(store.find(a.token())).isEmpty();
        assertThat(store.find(b.token())).contains(b);
        assertThat(store.revoke(a.token())).isFalse();
    }

    @Test
    void tokensAre40HexDigitsAndDistinct() {
        TokenStore store = new TokenStore(clock, 60);
        String a = store.create("a", "file", new AuthList(List.of())).token();
        String b = store.create("a", "file", new AuthList(List.of())).token();
        assertThat(a).matches("[0-9a-f]{40}");
        assertThat(a).isNotEqualTo(b);
    }
}
