package io.jsalt.transport.zmq;

import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.zeromq.ZContext;

/** The JeroMQ implementation of {@link Transport}; no JeroMQ type leaves this package. */
public final class ZmqTransport implements Transport {
    private final ZContext context = new ZContext(1);
    private final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        return ZmqRequestServer.start(context, host, port, workers, handler);
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        return ZmqPublishServer.start(context, host, port);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return new ZmqRequestClient(context, Endpoints.tcp(host, port));
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return ZmqSubscription.start(context, Endpoints.tcp(host, port), topics, listener);
    }

    @Override
    public void close() {
        // once only: the master closes the contexts it used, and a launcher may close the one it gave
        if (closed.compareAndSet(false, true)) {
            context.close();
        }
    }
}
