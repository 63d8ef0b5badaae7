package io.jsalt.transport.zmq;

import io.jsalt.transport.ClientLimits;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.zeromq.ZContext;

/** The JeroMQ implementation of {@link Transport}; no JeroMQ type leaves this package. */
public final class ZmqTransport implements Transport {
    /**
     * JeroMQ refuses a context's 1,024th socket (EMFILE, as libzmq's ZMQ_MAX_SOCKETS), which caps a JVM
     * hosting minions at about 340 (three sockets each); the process's file descriptors (4 per socket)
     * are the real limit, so the context's is set above it.
     */
    private static final int MAX_SOCKETS = 32_768;
    /**
     * I/O threads of the publisher's context; each subscriber connection belongs to one. JeroMQ 0.6.0's
     * I/O thread walks all its connections whenever one changes what it waits for (each accept, handshake
     * and write does), so with two the walks are half as long and run side by side.
     */
    private static final int PUBLISHER_IO_THREADS = 2;

    private final ZContext context = newContext();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final PollerNudge nudge = new PollerNudge(context);
    private final SubscriptionLoops subscriptionLoops = new SubscriptionLoops(context, nudge);
    private final IdleTimer idleTimer = new IdleTimer();
    /** Closed before the context: a server's own threads close its sockets, never the thread closing the context. */
    private final List<ZmqRequestServer> requestServers = new CopyOnWriteArrayList<>();
    private final List<PublisherWithOwnIoThread> publishers = new CopyOnWriteArrayList<>();

    private static ZContext newContext() {
        return newContext(1);
    }

    private static ZContext newContext(int ioThreads) {
        ZContext c = new ZContext(ioThreads);
        c.getContext().setMaxSockets(MAX_SOCKETS);
        return c;
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        return bindRequestServer(host, port, workers, handler, RequestLimits.DEFAULTS);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        requestServers.removeIf(ZmqRequestServer::closed);
        ZmqRequestServer server = ZmqRequestServer.start(context, host, port, workers, handler, limits);
        requestServers.add(server);
        return server;
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        PublisherWithOwnIoThread p = PublisherWithOwnIoThread.start(newContext(PUBLISHER_IO_THREADS), host, port);
        publishers.add(p);
        return p;
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return connectRequestClient(host, port, ZmqRequestClient.ANY_SIZE);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port, long maxReplyBytes) {
        return new ZmqRequestClient(context, Endpoints.tcp(host, port), idleTimer, nudge, Endpoints.HANDSHAKE_IVL_MS,
                maxReplyBytes);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return subscribe(host, port, topics, listener, ClientLimits.DEFAULT_MAX_PUBLICATION_BYTES);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        return ZmqSubscription.start(subscriptionLoops.reserve(), Endpoints.tcp(host, port), topics, listener,
                maxPublicationBytes);
    }

    @Override
    public void close() {
        // once only: the master closes the contexts it used, and a launcher may close the one it gave
        if (closed.compareAndSet(false, true)) {
            idleTimer.close();
            subscriptionLoops.close();
            requestServers.forEach(ZmqRequestServer::close);
            publishers.forEach(PublisherWithOwnIoThread::close);
            context.close();
        }
    }
}
