package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.request.RequestFreshness.Refusal;
import io.jsalt.transport.message.RequestStamp;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RequestFreshnessTest {
    final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    final RequestFreshness freshness = new RequestFreshness(() -> Duration.ofMinutes(5), now::get);

    @Test
    void anUnstampedLoadPassesAsASaltMinionsDoes() {
        assertThat(freshness.check(new HashMap<>(Map.of("cmd", "_pillar")), null)).isNull();
        assertThat(freshness.check(new HashMap<>(Map.of("cmd", "_pillar")), "a".repeat(32))).isNull();
    }

    @Test
    void aStampedLoadIsTakenOnce() {
        Map<String, Object> load = RequestStamp.stamp(Map.of("cmd", "_minion_event"), now.get() - 1_000);

        assertThat(freshness.check(load, "1".repeat(32))).isNull();
        assertThat(freshness.check(load, "1".repeat(32))).isEqualTo(Refusal.REPLAYED);
        assertThat(freshness.check(load, "2".repeat(32))).isNull(); // the same load sent again by its minion, new nonce
    }

    @Test
    void aStampOutsideTheWindowIsStaleEitherWay() {
        assertThat(freshness.check(RequestStamp.stamp(Map.of(), now.get() - 301_000), "3".repeat(32))).isEqualTo(Refusal.STALE);
        assertThat(freshness.check(RequestStamp.stamp(Map.of(), now.get() + 301_000), "4".repeat(32))).isEqualTo(Refusal.STALE);
    }

    @Test
    void aStampThatIsNoWholeNumberOrComesWithoutANonceIsMalformed() {
        Map<String, Object> text = new HashMap<>(Map.of(RequestStamp.FIELD, "yesterday"));
        assertThat(freshness.check(text, "5".repeat(32))).isEqualTo(Refusal.MALFORMED);
        assertThat(freshness.check(RequestStamp.stamp(Map.of(), now.get()), null)).isEqualTo(Refusal.MALFORMED);
    }

    @Test
    void noncesAreForgottenOnceTheirStampLeftTheWindow() {
        for (int i = 0; i < 2048; i++) {
            freshness.check(RequestStamp.stamp(Map.of(), now.get()), String.format("%032x", i));
        }
        now.addAndGet(Duration.ofMinutes(6).toMillis());
        for (int i = 0; i < 2048; i++) {
            freshness.check(RequestStamp.stamp(Map.of(), now.get()), String.format("%032x", 100_000 + i));
        }
        assertThat(freshness.remembered()).isLessThan(4096);
    }
}
