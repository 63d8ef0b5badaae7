package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one bound on {@code /events} and {@code /ws} streams together, and the counts {@code /stats} reports. */
class StreamSlotsTest {
    private static final int MAX = 1000;

    @Test
    void atMostMaxStreamsAreOpenAndAReleasedSlotIsTakenAgain() {
        ApiStats stats = new ApiStats(Clock.systemUTC(), () -> 7);
        StreamSlots slots = new StreamSlots(MAX, stats);
        for (int i = 0; i < MAX; i++) {
            assertThat(slots.tryAcquire()).as("stream %d", i).isTrue();
        }
        assertThat(slots.tryAcquire()).isFalse();
        assertThat(counted(stats, "Event Streams")).isEqualTo((long) MAX);
        assertThat(counted(stats, "Event Subscriptions")).isEqualTo(7);

        slots.release();
        assertThat(counted(stats, "Event Streams")).isEqualTo(MAX - 1L);
        assertThat(slots.tryAcquire()).isTrue();
        assertThat(slots.tryAcquire()).isFalse();
    }

    private static Object counted(ApiStats stats, String name) {
        return ((Map<?, ?>) stats.snapshot().get("jsalt-api")).get(name);
    }
}
