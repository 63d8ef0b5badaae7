package io.jsalt.api.events;

import io.jsalt.transport.event.EventFrame;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One event of a {@link SharedFeed}, handed to every stream of the feed: its JSON ({@code {"tag", "data"}}, as
 * salt-api's streams carry it, Salt's {@code iter_events(full=True)}) is written once, by the first stream that
 * sends it, however many streams share the feed.
 */
public final class FeedEvent {
    private final EventFrame frame;
    private volatile String json;

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
}
