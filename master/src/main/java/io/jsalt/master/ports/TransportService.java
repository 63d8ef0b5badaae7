package io.jsalt.master.ports;

import io.jsalt.master.process.Service;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket context both ports live in. It has no thread of its own to watch: it is declared dead by the
 * health probe ({@link #markDead}) when its request port stops answering, since a dead JeroMQ I/O thread
 * takes every socket of its context with it. A restart makes a new context; the publisher and request
 * server depend on this service and are bound again in it.
 */
public final class TransportService implements Service {
    private static final Logger log = LoggerFactory.getLogger(TransportService.class);
    /** Closing a context whose I/O thread is stuck never returns: wait this long, then leave it behind. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(3);

    private final Supplier<Transport> factory;
    private volatile Transport current;
    private volatile String deadReason;
    private volatile int generation;

    public TransportService(Supplier<Transport> factory) {
        this.factory = factory;
    }

    @Override
    public String name() {
        return "transport";
    }

    @Override
    public void start() {
        current = factory.get();
        deadReason = null;
        generation++;
    }

    /** The live context: bind the ports in it. */
    public Transport current() {
        Transport t = current;
        if (t == null) {
            throw new IllegalStateException("the transport is not started");
        }
        return t;
    }

    /** Counts restarts, so a probe that began before one cannot condemn the context made after it. */
    public int generation() {
        return generation;
    }

    /** Reports the context of {@code generation} dead; the supervisor then restarts it and both ports. */
    public void markDead(int generation, String reason) {
        if (generation == this.generation) {
            deadReason = reason;
        }
    }

    @Override
    public Optional<String> failure() {
        return Optional.ofNullable(deadReason);
    }

    @Override
    public void close() {
        Transport t = current;
        current = null;
        if (t == null) {
            return;
        }
        Thread closer = new Thread(t::close, "jsalt-transport-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            log.warn("the old transport did not close within {} s (its I/O thread is stuck): left behind", CLOSE_WAIT.toSeconds());
        }
    }
}
