package io.jsalt.api.events;

/**
 * The bounds on event streams ({@code GET /events} and {@code GET /ws} together), from the {@code rest_cherrypy}
 * section (salt-api has no such keys: CherryPy gives each stream a thread of its {@code thread_pool}).
 *
 * @param maxStreams   {@code max_event_streams}: streams open at once; past it a new one is refused (503, or 1013
 *                     for a websocket). A stream costs a connection and its buffer, no thread.
 * @param streamBuffer {@code event_stream_buffer}: events waiting for one stream's client; a client that falls
 *                     further behind is cut off, so it never holds back the other streams of its subscription
 */
public record EventLimits(int maxStreams, int streamBuffer) {
    public static final int DEFAULT_MAX_STREAMS = 1000;
    public static final int DEFAULT_STREAM_BUFFER = 256;
    public static final EventLimits DEFAULTS = new EventLimits(DEFAULT_MAX_STREAMS, DEFAULT_STREAM_BUFFER);

    public EventLimits {
        if (maxStreams < 1 || streamBuffer < 1) {
            throw new IllegalArgumentException("event stream limits must be positive: " + maxStreams + ", " + streamBuffer);
        }
    }
}
