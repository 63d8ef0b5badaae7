package io.jsalt.transport;

/** The master's publish port: a PUB socket that every minion subscribes to. */
public interface PublishServer extends AutoCloseable {
    /** Queues one single-frame publication for every subscriber. Thread-safe. */
    void publish(byte[] payload);

    /** Queues a two-frame publication [topic, payload] (zmq_filtering). Thread-safe. */
    void publish(byte[] topic, byte[] payload);

    int port();

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
