package io.jsalt.master.process;

import java.util.Optional;

/**
 * One supervised component of the master (the publisher, the request server, one MWorker, ...). The
 * {@link Supervisor} calls every method from its own thread, so an implementation only has to be safe
 * against its own component's threads.
 */
public interface Service {
    /** A short stable name for logs and reports: {@code publisher}, {@code mworker-3}. */
    String name();

    /** Brings the component up, or throws; called again after {@link #close()} to restart it. */
    void start();

    /** Empty while the component works, else why it does not. Called often: keep it cheap. */
    Optional<String> failure();

    /**
     * Stops the component and frees what it holds; must not throw, must not block for long. The supervisor
     * waits for it a bounded time only: a close still running then makes it give up the component.
     */
    void close();
}
