package io.jsalt.transport;

/**
 * What the request port lets its clients make it hold: the largest request frame, and the memory that all
 * connections together may hold in frames that are still arriving. Anyone can connect to the request
 * port, so both bound what a client only declares: a frame header announcing more than
 * {@code maxRequestBytes} gets its connection dropped before anything is reserved, and a frame that would
 * take the port past {@code maxInflightBytes} is refused (its bytes never stored) and its request dropped.
 *
 * @param maxRequestBytes  the largest frame accepted ({@code max_request_size})
 * @param maxInflightBytes what frames larger than {@link #UNBUDGETED_FRAME_BYTES} may hold at once, across
 *                         every connection, from their header until a worker takes them
 *                         ({@code max_inflight_request_bytes}); at least {@code maxRequestBytes}
 */
public record RequestLimits(long maxRequestBytes, long maxInflightBytes) {
    /**
     * Frames up to this size are not counted: one costs no more than the read buffer JeroMQ already keeps
     * for each connection (8 KiB), so their total is bounded by the connections, as that buffer is.
     */
    public static final int UNBUDGETED_FRAME_BYTES = 8 * 1024;
    /**
     * 16 MiB: a return is the largest request a minion sends, and a jsalt minion caps each output stream of
     * a command at 1 MiB; a whole highstate's return stays well below it.
     */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 16L * 1024 * 1024;
    /** 64 MiB: four requests of the largest size at once, or hundreds of ordinary returns. */
    public static final long DEFAULT_MAX_INFLIGHT_BYTES = 64L * 1024 * 1024;
    public static final RequestLimits DEFAULTS = new RequestLimits(DEFAULT_MAX_REQUEST_BYTES, DEFAULT_MAX_INFLIGHT_BYTES);

    public RequestLimits {
        if (maxRequestBytes < UNBUDGETED_FRAME_BYTES) {
            throw new IllegalArgumentException("maxRequestBytes must be at least " + UNBUDGETED_FRAME_BYTES + ", not " + maxRequestBytes);
        }
        if (maxRequestBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxRequestBytes must be at most " + Integer.MAX_VALUE + ", not " + maxRequestBytes);
        }
        if (maxInflightBytes < maxRequestBytes) {
            throw new IllegalArgumentException("maxInflightBytes (" + maxInflightBytes
                    + ") must be at least maxRequestBytes (" + maxRequestBytes + ")");
        }
    }
}
