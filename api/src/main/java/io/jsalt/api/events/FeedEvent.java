package io.jsalt.api.events;

import io.jsalt.transport.event.EventFrame;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One event of a {@link SharedFeed}, handed to every stream of the feed: its JSON ({@code {"tag", "data"}}, as
 * salt-api's streams carry it, Salt's {@code iter_events(full=True)}) and its bytes on the wire are made once, by
 * the first stream that sends it, however many streams share the feed.
 */
public final class FeedEvent {
    private final EventFrame frame;
    private volatile String json;
    private volatile Encoded encoded;

    /** The bytes one encoder made of this event. */
    private record Encoded(Function<FeedEvent, byte[]> encoder, byte[] bytes) {}

    FeedEvent(EventFrame frame) {
        this.frame = frame;
    }

    public EventFrame frame() {
        return frame;
    }

    public String tag() {
        return frame.tag();
    }

    /**
     * {@code {"tag", "data"}} written by {@code writer} (the API's JSON writer), kept for the feed's other streams;
     * two threads may both write it, with the same result.
     */
    public String json(Function<Object, String> writer) {
        String j = json;
        if (j == null) {
            Map<String, Object> full = new LinkedHashMap<>();
            full.put("tag", frame.tag());
            full.put("data", frame.data());
            j = writer.apply(full);
            json = j;
        }
        return j;
    }

    /**
     * The event's bytes as {@code encoder} writes them (say, a server-sent event), made once and kept for the
     * feed's other streams that use the same encoder; a buffer of its own for each caller (the writers only read it).
     */
    public ByteBuffer bytes(Function<FeedEvent, byte[]> encoder) {
        Encoded e = encoded;
        if (e == null || e.encoder() != encoder) {
            e = new Encoded(encoder, encoder.apply(this));
            encoded = e;
        }
        return ByteBuffer.wrap(e.bytes());
    }
}
