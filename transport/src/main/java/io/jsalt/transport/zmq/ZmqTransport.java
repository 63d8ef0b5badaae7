package io.jsalt.transport.zmq;

import io.jsalt.transport.ClientLimits;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.RequestServerKind;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** The JeroMQ implementation of {@link Transport}; no JeroMQ type leaves this package. */
public final class ZmqTransport implements Transport {
    /**
     * I/O threads of the publisher's context; each subscriber connection belongs to one. JeroMQ 0.6.0's
     * I/O thread walks all its connections whenever one changes what it waits for (each accept, handshake
     * and write does), so with two the walks are half as long and run side by side.
     */
    private static final int PUBLISHER_IO_THREADS = 2;

    /** JeroMQ's own default (libzmq's ZMQ_MAX_SOCKETS): a minion or a tool opens a handful. */
    public static final int ONE_PROCESS_MAX_SOCKETS = 1024;
    /** {@link SocketContext#MAX_SOCKETS}, for {@link io.jsalt.transport.Transport#createForManyMinions(int, int)}. */
    public static final int MANY_MAX_SOCKETS = SocketContext.MAX_SOCKETS;

    private final SocketContext context;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final PollerNudge nudge;
    private final SubscriptionLoops subscriptionLoops;
    private final IdleTimer idleTimer = new IdleTimer();
    private final Duration closeWait;
    /** Stopped before the context terminates: a server's own threads close its sockets, never the closing thread. */
    private final List<OwnedRequestServer> requestServers = new CopyOnWriteArrayList<>();
    private final List<PublisherWithOwnIoThread> publishers = new CopyOnWriteArrayList<>();
    private final Set<ZmqRequestClient> clients = ConcurrentHashMap.newKeySet();

    public ZmqTransport() {
        this(SocketContext.CLOSE_WAIT);
    }

    /** With room for {@code maxSockets} sockets in its context (see {@link io.jsalt.transport.Transport#createForOneProcess()}). */
    public ZmqTransport(int maxSockets) {
        this(SocketContext.CLOSE_WAIT, maxSockets);
    }

    /**
     * With room for {@code maxSockets} sockets and {@code ioThreads} I/O threads (at least 1) in its context, and
     * at most {@code subscriptionsPerThread} subscriptions on each subscription thread.
     */
    public ZmqTransport(int maxSockets, int ioThreads, int subscriptionsPerThread) {
        this(SocketContext.CLOSE_WAIT, maxSockets, ioThreads, subscriptionsPerThread);
    }

    /** With {@code closeWait} as the bound of each context's close (tests use a short one). */
    ZmqTransport(Duration closeWait) {
        this(closeWait, SocketContext.MAX_SOCKETS);
    }

    private ZmqTransport(Duration closeWait, int maxSockets) {
        this(closeWait, maxSockets, 1, SubscriptionLoop.CAPACITY);
    }

    private ZmqTransport(Duration closeWait, int maxSockets, int ioThreads, int subscriptionsPerThread) {
        if (ioThreads < 1 || subscriptionsPerThread < 1) {
            throw new IllegalArgumentException("a transport needs at least one I/O thread and one subscription per thread, not "
                    + ioThreads + " and " + subscriptionsPerThread);
        }
        this.closeWait = closeWait;
        this.context = new SocketContext("transport", ioThreads, closeWait, maxSockets);
        this.nudge = new PollerNudge(context);
        this.subscriptionLoops = new SubscriptionLoops(context, nudge, subscriptionsPerThread);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        return bindRequestServer(host, port, workers, handler, RequestLimits.DEFAULTS);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        return bindRequestServer(host, port, workers, handler, limits, RequestServerKind.JEROMQ);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits,
            RequestServerKind kind) {
        requireOpen();
        requestServers.removeIf(OwnedRequestServer::closed);
        OwnedRequestServer server = kind == RequestServerKind.NATIVE
                ? NativeRequestServer.start(host, port, workers, handler, limits)
                : ZmqRequestServer.start(context, host, port, workers, handler, limits);
        requestServers.add(server);
        return server;
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        requireOpen();
        publishers.removeIf(PublisherWithOwnIoThread::closed);
        PublisherWithOwnIoThread p = PublisherWithOwnIoThread.start(
                new SocketContext("publisher-" + port, PUBLISHER_IO_THREADS, closeWait), host, port);
        publishers.add(p);
        return p;
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return connectRequestClient(host, port, ZmqRequestClient.ANY_SIZE);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port, long maxReplyBytes) {
        requireOpen();
        ZmqRequestClient client = new ZmqRequestClient(context, Endpoints.tcp(host, port), idleTimer, nudge,
                Endpoints.HANDSHAKE_IVL_MS, maxReplyBytes);
        client.onClose(() -> clients.remove(client));
        clients.add(client);
        return client;
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return subscribe(host, port, topics, listener, ClientLimits.DEFAULT_MAX_PUBLICATION_BYTES);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        requireOpen();
        return ZmqSubscription.start(subscriptionLoops.reserve(), Endpoints.tcp(host, port), topics, listener,
                maxPublicationBytes);
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new TransportException("the transport is closed");
        }
    }

    /**
     * Asks every thread owning a socket to close it, then terminates the contexts, each within the close
     * wait ({@link SocketContext}). No socket is closed here: a thread still inside a request handler or a
     * request closes its own when it gets back, and the termination's ETERM wakes those that wait.
     */
    @Override
    public void close() {
        // once only: the master closes the contexts it used, and a launcher may close the one it gave
        if (closed.compareAndSet(false, true)) {
            idleTimer.close(); // its task closes a client's socket holding the client's lock: let it finish
            subscriptionLoops.stop();
            requestServers.forEach(OwnedRequestServer::stop);
            clients.forEach(ZmqRequestClient::closeFromTransport);
            // a loop closes its sockets within one poll: before the termination, so that a SUB's monitor pipe
            // is not closed at both ends at once (JeroMQ 0.6.0's reaper dies of that, see SocketContext)
            subscriptionLoops.close();
            publishers.forEach(PublisherWithOwnIoThread::close);
            context.terminate();
        }
    }

    /** True when every context of this transport terminated within its close wait; for tests. */
    boolean closedCleanly() {
        return context.leftOpen().isEmpty() && publishers.stream().allMatch(PublisherWithOwnIoThread::closedCleanly);
    }

    /** True once every context of this transport has terminated, in time or later; for tests. */
    boolean terminated() {
        return context.isTerminated() && publishers.stream().allMatch(PublisherWithOwnIoThread::terminated);
    }

    /** The sockets a close left open, by context; for tests. */
    List<String> leftOpen() {
        List<String> all = new ArrayList<>(context.leftOpen());
        publishers.forEach(p -> all.addAll(p.leftOpen()));
        return all;
    }

    /** Exceptions JeroMQ's I/O threads of any of this transport's contexts caught and went on from; for tests. */
    List<String> notifications() {
        List<String> all = new ArrayList<>(context.notifications());
        publishers.forEach(p -> all.addAll(p.notifications()));
        return all;
    }

    /** Exceptions that ended a JeroMQ thread of any of this transport's contexts; for tests. */
    List<String> threadFailures() {
        List<String> all = new ArrayList<>(context.threadFailures());
        publishers.forEach(p -> all.addAll(p.threadFailures()));
        return all;
    }
}
