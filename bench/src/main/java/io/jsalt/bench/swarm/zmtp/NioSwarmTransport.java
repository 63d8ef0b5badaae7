package io.jsalt.bench.swarm.zmtp;

import io.jsalt.transport.ClientLimits;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The light swarm's transport without JeroMQ: every minion still has its own subscription connection and its own
 * request connection, speaking ZMTP 3 with the bytes a JeroMQ SUB and REQ send ({@link ZmtpPeerBytes}), but all of
 * a JVM's connections sit on one NIO selector thread ({@link SelectorLoop}) instead of JeroMQ's I/O threads,
 * reapers, subscription loops and a poller per request. Only connects: a swarm binds nothing.
 */
public final class NioSwarmTransport implements Transport {
    /** The largest reply frame a request client takes when not told: what a Java array holds. */
    static final long ANY_REPLY_BYTES = Integer.MAX_VALUE - 8;

    private final SelectorLoop loop = new SelectorLoop("swarm-zmtp-selector");

    @Override
    public RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler) {
        throw new UnsupportedOperationException("the swarm's transport only connects");
    }

    @Override
    public PublishServer bindPublisher(String host, int port) {
        throw new UnsupportedOperationException("the swarm's transport only connects");
    }

    @Override
    public RequestClient connectRequestClient(String host, int port) {
        return connectRequestClient(host, port, ANY_REPLY_BYTES);
    }

    @Override
    public RequestClient connectRequestClient(String host, int port, long maxReplyBytes) {
        return new NioRequestClient(loop, new InetSocketAddress(host, port), maxReplyBytes < 0 ? ANY_REPLY_BYTES : maxReplyBytes);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener) {
        return subscribe(host, port, topics, listener, ClientLimits.DEFAULT_MAX_PUBLICATION_BYTES);
    }

    @Override
    public Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener, long maxPublicationBytes) {
        return NioSubscription.start(loop, new InetSocketAddress(host, port), topics, listener, maxPublicationBytes);
    }

    @Override
    public void close() {
        loop.close();
    }
}
