package io.jsalt.api.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.event.EventFrame;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** An event shared by the streams of a subscription is encoded once per encoder, and each stream reads it whole. */
class FeedEventTest {
    @Test
    void theBytesAreMadeOnceForEveryStreamAndEachGetsItsOwnPosition() {
        AtomicInteger made = new AtomicInteger();
        Function<FeedEvent, byte[]> encoder = e -> {
            made.incrementAndGet();
            return ("tag: " + e.tag()).getBytes(StandardCharsets.UTF_8);
        };
        FeedEvent event = new FeedEvent(new EventFrame("salt/job/1/new", Map.of("n", 1)));
        ByteBuffer first = event.bytes(encoder);
        first.get(new byte[first.remaining()]); // one stream's write reads its buffer to the end
        ByteBuffer second = event.bytes(encoder);
        assertThat(StandardCharsets.UTF_8.decode(second).toString()).isEqualTo("tag: salt/job/1/new");
        assertThat(made.get()).isEqualTo(1);

        Function<FeedEvent, byte[]> other = e -> e.json(String::valueOf).getBytes(StandardCharsets.UTF_8);
        assertThat(StandardCharsets.UTF_8.decode(event.bytes(other)).toString()).isEqualTo("{tag=salt/job/1/new, data={n=1}}");
    }
}
