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

    /**
     * Closes the connection once no request has used it for {@code idle}; the next request opens a new
     * one. A master spends a file descriptor on every open connection, so a fleet of minions that keep
     * idle ones open costs it one descriptor per minion more (Salt's minions close theirs after each use).
     * By default the connection stays open.
     */
    default void closeWhenIdle(Duration idle) {}

    @Override
    void close();
}
