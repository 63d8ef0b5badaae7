package io.jsalt.transport;

/** A running subscription to a master's publish port; closing it stops delivery. */
public interface Subscription extends AutoCloseable {
    /**
     * Waits until the connection to the publisher has completed its handshake, after which the
     * subscription is on its way to the publisher. Returns false on timeout.
     */
    boolean awaitConnected(java.time.Duration timeout);

    /**
     * Reports later connects and disconnects to {@code listener} (replacing any earlier one). Events that
     * happened before the call are not replayed: {@link #awaitConnected} covers the first connect.
     */
    default void connectionListener(ConnectionListener listener) {}

    @Override
    void close();
}
