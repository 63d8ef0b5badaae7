package io.jsalt.transport;

import java.util.Set;

/** The master's publish port: the socket every minion subscribes to (publishes as a PUB, sees its subscriptions). */
public interface PublishServer extends AutoCloseable {
    /** Queues one single-frame publication for every subscriber. Thread-safe. */
    void publish(byte[] payload);

    /** Queues a two-frame publication [topic, payload] (zmq_filtering). Thread-safe. */
    void publish(byte[] topic, byte[] payload);

    int port();

    /**
     * The topics at least one connected subscriber subscribes to now, as ISO-8859-1 strings ({@code ""} is
     * the subscription to everything). A subscriber's topics leave the set when it unsubscribes or its
     * connection closes; the set is what the subscribers told the socket, never a guess from the TCP table.
     */
    default Set<String> subscribedTopics() {
        return Set.of();
    }

    /**
     * False once the thread that owns the socket has stopped for any reason other than {@link #close()}
     * (an uncaught exception, a socket error): the master's process manager then binds a new one.
     */
    default boolean isAlive() {
        return true;
    }

    @Override
    void close();
}
