package io.jsalt.transport;

/**
 * The largest frames a minion accepts from its master: on the subscription (a publication) and on the
 * request channel (a reply). A frame header announcing more gets the connection dropped before anything is
 * reserved, so a rogue or on-path publisher cannot make a minion allocate what it declares.
 *
 * @param maxPublicationBytes the largest publication frame ({@code max_publication_size})
 * @param maxReplyBytes       the largest reply frame ({@code max_reply_size})
 */
public record ClientLimits(long maxPublicationBytes, long maxReplyBytes) {
    /**
     * 32 MiB: a publication carries a job's arguments, which came to the master as one request of at most
     * {@link RequestLimits#DEFAULT_MAX_REQUEST_BYTES}; the master adds the envelope, a signature and the
     * AES padding (a few hundred bytes), so twice the request limit leaves room for a master whose
     * {@code max_request_size} was raised a little.
     */
    public static final long DEFAULT_MAX_PUBLICATION_BYTES = 2 * RequestLimits.DEFAULT_MAX_REQUEST_BYTES;
    /**
     * 16 MiB: the master's replies are small (a sign-in answer is under 2 KiB) except file-server chunks
     * ({@code file_buffer_size}, 256 KiB by default) and pillar.
     */
    public static final long DEFAULT_MAX_REPLY_BYTES = 16L * 1024 * 1024;
    public static final ClientLimits DEFAULTS = new ClientLimits(DEFAULT_MAX_PUBLICATION_BYTES, DEFAULT_MAX_REPLY_BYTES);
    /** Below this a sign-in reply (the master's public key and the encrypted session key) might not fit. */
    public static final long MIN_FRAME_BYTES = 64 * 1024;

    public ClientLimits {
        check("maxPublicationBytes", maxPublicationBytes);
        check("maxReplyBytes", maxReplyBytes);
    }

    private static void check(String name, long value) {
        if (value < MIN_FRAME_BYTES || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " must be between " + MIN_FRAME_BYTES + " and " + Integer.MAX_VALUE + ", not " + value);
        }
    }
}
