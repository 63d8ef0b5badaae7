package io.jsalt.transport;

import java.time.Duration;

/** One request channel to a master's request port. One request is in flight at a time. */
public interface RequestClient extends AutoCloseable {
    /**
     * Sends one frame and waits for its answer.
     *
     * @throws RequestTimeoutException when no answer came in time (the socket is recreated)
     */
    byte[] request(byte[] payload, Duration timeout);

    @Override
    void close();
}
