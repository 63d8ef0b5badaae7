package io.jsalt.transport.zmq;

import io.jsalt.transport.PublishServer;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.List;

/**
 * A publisher in a socket context of its own, so its connections (one per minion) have I/O threads of
 * their own. JeroMQ 0.6.0's I/O thread walks every connection it owns each time one of them changes what
 * it waits for (every reply written does), so with 10,000 subscribers on the request port's I/O thread
 * each request cost a walk over 10,000 connections; apart, the request port's thread walks only the
 * request connections, and the publisher's walks its subscribers when it publishes.
 */
final class PublisherWithOwnIoThread implements PublishServer {
    private final SocketContext context;
    private final ZmqPublishServer server;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PublisherWithOwnIoThread(SocketContext context, ZmqPublishServer server) {
        this.context = context;
        this.server = server;
    }

    static PublisherWithOwnIoThread start(SocketContext context, String host, int port) {
        try {
            return new PublisherWithOwnIoThread(context, ZmqPublishServer.start(context, host, port));
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    @Override
    public void publish(byte[] payload) {
        server.publish(payload);
    }

    @Override
    public void publish(byte[] topic, byte[] payload) {
        server.publish(topic, payload);
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public Set<String> subscribedTopics() {
        return server.subscribedTopics();
    }

    @Override
    public boolean isAlive() {
        return server.isAlive();
    }

    /**
     * Stops the sender thread, which closes the socket, and terminates the context within its close wait
     * ({@link SocketContext}): a sender that died inside JeroMQ cannot hold the caller for ever.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.stop();
            context.terminate();
        }
    }

    boolean closed() {
        return closed.get();
    }

    boolean closedCleanly() {
        return context.leftOpen().isEmpty();
    }

    boolean terminated() {
        return context.isTerminated();
    }

    List<String> leftOpen() {
        return context.leftOpen();
    }

    List<String> notifications() {
        return context.notifications();
    }

    List<String> threadFailures() {
        return context.threadFailures();
    }
}
