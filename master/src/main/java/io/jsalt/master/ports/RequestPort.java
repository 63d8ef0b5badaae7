package io.jsalt.master.ports;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.process.Service;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import java.time.Duration;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The request port's router as a supervised service. Its MWorkers are services of their own
 * ({@link MWorker}) depending on this one: a worker can die and come back alone, while a restart of the
 * router binds a whole new request server with a fresh pool of {@code worker_threads} workers.
 */
public final class RequestPort implements Service {
    private final TransportService transport;
    private final Supplier<String> host;
    private final IntSupplier workerThreads;
    private final RequestHandler handler;
    private final PortBinding binding;
    private final RequestLimits limits;
    private final RequestServerKind kind;
    private volatile int port;
    private volatile RequestServer current;

    public RequestPort(TransportService transport, Supplier<String> host, int port, IntSupplier workerThreads,
            RequestHandler handler, Duration rebindFor) {
        this(transport, host, port, workerThreads, handler, rebindFor, RequestLimits.DEFAULTS,
                MasterConfig.RequestPortLimits.DEFAULT_REQUEST_SERVER);
    }

    /**
     * Holding every client to {@code limits} (max_request_size, max_inflight_request_bytes), served by a request
     * server of {@code kind} (request_server).
     */
    public RequestPort(TransportService transport, Supplier<String> host, int port, IntSupplier workerThreads,
            RequestHandler handler, Duration rebindFor, RequestLimits limits, RequestServerKind kind) {
        this.limits = limits;
        this.kind = kind;
        this.transport = transport;
        this.host = host;
        this.port = port;
        this.workerThreads = workerThreads;
        this.handler = handler;
        this.binding = new PortBinding(rebindFor);
    }

    @Override
    public String name() {
        return "request-server";
    }

    @Override
    public void start() {
        RequestServer bound = binding.bind(() ->
                transport.current().bindRequestServer(host.get(), port, workerThreads.getAsInt(), handler, limits, kind));
        port = bound.port();
        current = bound;
    }

    /** The bound request server; its workers are numbered 0 to {@code workers() - 1}. */
    public RequestServer server() {
        RequestServer s = current;
        if (s == null) {
            throw new IllegalStateException("the request port is being bound again");
        }
        return s;
    }

    public int port() {
        return port;
    }

    @Override
    public Optional<String> failure() {
        RequestServer s = current;
        return s == null || s.isAlive() ? Optional.empty() : Optional.of("the request router on port " + port + " stopped");
    }

    @Override
    public void close() {
        RequestServer s = current;
        current = null;
        if (s != null) {
            s.close();
        }
    }
}
