package io.jsalt.master.support;

import io.jsalt.config.MasterConfig;
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
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real transport that the test can sabotage from inside the JVM (never from the wire): kill the worker
 * thread that takes the next request, hold the next requests unanswered until {@link #release()}, or, when
 * made with a proxied request port, {@link #freezeRequestPort() freeze} that port as a context whose I/O
 * thread is lost.
 */
public final class SabotagedTransport implements Transport {
    private final Transport real = Transport.create();
    private final AtomicBoolean killNext = new AtomicBoolean();
    private final AtomicInteger toWedge = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger wedged = new AtomicInteger();
    private final boolean proxied;
    private final AtomicBoolean publisherDead = new AtomicBoolean();
    private volatile FreezableTcpProxy proxy;

    public SabotagedTransport() {
        this(false);
    }

    /** With {@code proxiedRequestPort}, the request port is a relay in front of a server on a free port. */
    public SabotagedTransport(boolean proxiedRequestPort) {
        this.proxied = proxiedRequestPort;
    }

    /** The request port stops passing bytes either way; the router behind it is fine. */
    public void freezeRequestPort() {
        proxy.freeze();
    }

    /** What kills a worker thread: an Error, which a request handler never catches. */
    public static final class KilledOnPurpose extends Error {
        KilledOnPurpose() {
            super("worker killed on purpose by the test");
        }
    }

    /** The worker that takes the next request dies without answering it. */
    public void killNextWorker() {
        killNext.set(true);
    }

    /** True until a worker has taken the request that kills it. */
    public boolean killPending() {
        return killNext.get();
    }

    /** The next {@code count} requests hold their workers, unanswered, until {@link #release()}. */
    public void wedgeNext(int count) {
        toWedge.set(count);
    }

    /** How many requests are being held. */
    public int wedged() {
        return wedged.get();
    }

    /**
     * The publisher reports its thread dead, and closing it blocks until {@link #release()}: a publisher
     * thread killed inside JeroMQ, whose context then never finished closing.
     */
    public void killPublisherWithACloseThatSticks() {
        publisherDead.set(true);
    }

    public void release() {
        released.countDown();
    }

    private RequestHandler sabotage(RequestHandler handler) {
        return request -> {
            if (killNext.compareAndSet(true, false)) {
                throw new KilledOnPurpose();
            }
            if (toWedge.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                wedged.incrementAndGet();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return handler.handle(request);
        };
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        return bindRequestServer(host, port, workers, handler, RequestLimits.DEFAULTS,
                MasterConfig.RequestPortLimits.DEFAULT_REQUEST_SERVER);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        return bindRequestServer(host, port, workers, handler, limits, MasterConfig.RequestPortLimits.DEFAULT_REQUEST_SERVER);
    }

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits,
            RequestServerKind kind) {
        if (!proxied) {
            return real.bindRequestServer(host, port, workers, sabotage(handler), limits, kind);
        }
        RequestServer behind = real.bindRequestServer(host, 0, workers, sabotage(handler), limits, kind);
        try {
            proxy = new FreezableTcpProxy(port, behind.port());
        } catch (IOException e) {
            behind.close();
            throw new TransportException("cannot bind the relay on port " + port, e);
        }
        return new RequestServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public boolean isAlive() {
                return behind.isAlive();
            }

            @Override
            public int workers() {
                return behind.workers();
            }

            @Override
            public boolean isWorkerAlive(int index) {
                return behind.isWorkerAlive(index);
            }

            @Override
            public void restartWorker(int index) {
                behind.restartWorker(index);
            }

            @Override
            public void resize(int count) {
                behind.resize(count);
            }

            @Override
            public void close() {
                proxy.close();
                behind.close();
            }
        };
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        PublishServer bound = real.bindPublisher(host, port);
        return new PublishServer() {
            @Override
            public void publish(byte[] payload) {
                bound.publish(payload);
            }

            @Override
            public void publish(byte[] topic, byte[] payload) {
                bound.publish(topic, payload);
            }

            @Override
            public int port() {
                return bound.port();
            }

            @Override
            public java.util.Set<String> subscribedTopics() {
                return bound.subscribedTopics();
            }

            @Override
            public boolean isAlive() {
                return !publisherDead.get() && bound.isAlive();
            }

            @Override
            public void close() {
                if (publisherDead.get()) {
                    try {
                        released.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                bound.close();
            }
        };
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return real.connectRequestClient(host, port);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return real.subscribe(host, port, topics, listener);
    }

    @Override
    public void close() {
        release();
        real.close();
    }
}
