package io.jsalt.transport;

/**
 * The master's request port: a ROUTER feeding a pool of worker threads ("MWorkers"), numbered from 0.
 * The supervision methods let the master's process manager watch and restart each part on its own.
 */
public interface RequestServer extends AutoCloseable {
    /** The bound TCP port (useful when bound to port 0). */
    int port();

    /** False once the thread that owns the bound socket has stopped other than by {@link #close()}. */
    default boolean isAlive() {
        return true;
    }

    /** How many workers the pool has (alive or not). */
    default int workers() {
        return 0;
    }

    /** False once worker {@code index} has stopped other than by {@link #close()} or {@link #resize}. */
    default boolean isWorkerAlive(int index) {
        return true;
    }

    /** Starts worker {@code index} again if its thread has stopped; does nothing to a live worker. */
    default void restartWorker(int index) {
        throw new UnsupportedOperationException("this request server cannot restart workers");
    }

    /**
     * Grows or shrinks the pool to {@code workers} (at least 1). A removed worker first answers the request it is
     * working on; a request already queued to it is lost, and its client retries as after any timeout.
     */
    default void resize(int workers) {
        throw new UnsupportedOperationException("this request server cannot be resized");
    }

    @Override
    void close();
}
