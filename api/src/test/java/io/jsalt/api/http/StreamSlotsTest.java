package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one bound on {@code /events} and {@code /ws} streams together, and the count {@code /stats} reports. */
class StreamSlotsTest {
    @Test
    void atMostMaxStreamsAreOpenAndAReleasedSlotIsTakenAgain() {
        ApiStats stats = new ApiStats(Clock.systemUTC());
        StreamSlots slots = new StreamSlots(stats);
        for (int i = 0; i < StreamSlots.MAX; i++) {
            assertThat(slots.tryAcquire()).as("stream %d", i).isTrue();
        }
        assertThat(slots.tryAcquire()).isFalse();
        assertThat(streams(stats)).isEqualTo((long) StreamSlots.MAX);

        slots.release();
        assertThat(streams(stats)).isEqualTo(StreamSlots.MAX - 1L);
        assertThat(slots.tryAcquire()).isTrue();
        assertThat(slots.tryAcquire()).isFalse();
        // ordinary requests keep worker threads of their own
        assertThat(StreamSlots.MAX).isLessThan(HttpFront.WORKERS - 4);
    }

    private static Object streams(ApiStats stats) {
        return ((Map<?, ?>) stats.snapshot().get("jsalt-api")).get("Event Streams");
    }
}
