package io.jsalt.master.ports;

import io.jsalt.transport.TransportException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Binds a port again after a restart. The socket being replaced is closed asynchronously by the transport,
 * so its port can stay busy for a moment: a rebind retries for a while. A first bind does not retry, so
 * a port taken by another process is reported at once (Salt's "The ports are not available to bind").
 */
final class PortBinding {
    private static final long RETRY_MS = 100;

    private final Duration rebindFor;
    private boolean boundOnce;

    PortBinding(Duration rebindFor) {
        this.rebindFor = rebindFor;
    }

    <T> T bind(Supplier<T> binder) {
        if (!boundOnce) {
            T bound = binder.get();
            boundOnce = true;
            return bound;
        }
        long deadline = System.nanoTime() + rebindFor.toNanos();
        while (true) {
            try {
                return binder.get();
            } catch (TransportException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while binding again");
        }
    }
}
