package io.jsalt.master.ports;

import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.util.List;

/**
 * A transport the master uses but does not own (shared, e.g., with minions in the same JVM): closing it
 * is its owner's business, so {@link #close()} does nothing. Closing a ZeroMQ context waits for every
 * socket on it, including other users' sockets.
 */
public final class BorrowedTransport implements Transport {
    private final Transport owner;

    public BorrowedTransport(Transport owner) {
        this.owner = owner;
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        return owner.bindRequestServer(host, port, workers, handler);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        return owner.bindRequestServer(host, port, workers, handler, limits);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits,
            RequestServerKind kind) {
        return owner.bindRequestServer(host, port, workers, handler, limits, kind);
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        return owner.bindPublisher(host, port);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return owner.connectRequestClient(host, port);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port, long maxReplyBytes) {
        return owner.connectRequestClient(host, port, maxReplyBytes);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return owner.subscribe(host, port, topics, listener);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        return owner.subscribe(host, port, topics, listener, maxPublicationBytes);
    }

    @Override
    public void close() {
        // the owner closes it
    }
}
