package io.jsalt.transport;

/** The master's request port: a ROUTER feeding a pool of worker threads ("MWorkers"). */
public interface RequestServer extends AutoCloseable {
    /** The bound TCP port (useful when bound to port 0). */
    int port();

    @Override
    void close();
}
