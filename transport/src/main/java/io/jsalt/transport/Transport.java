package io.jsalt.transport;

import io.jsalt.transport.zmq.ZmqTransport;
import java.util.List;

/**
 * Factory for every socket jsalt uses. One instance is shared by everything in a process (many minion
 * instances can share one); closing it closes every socket it made.
 */
public interface Transport extends AutoCloseable {

    static Transport create() {
        return new ZmqTransport();
    }

    /**
     * A transport for a process that is one minion or one tool, not a host of many minions: its socket context
     * has room for JeroMQ's default 1,024 sockets instead of {@link #create()}'s 32,768, whose slots (and a boxed
     * index for each) cost ~0.9 MiB of heap for as long as the process lives.
     */
    static Transport createForOneProcess() {
        return new ZmqTransport(ZmqTransport.ONE_PROCESS_MAX_SOCKETS);
    }

    /**
     * A transport for a process hosting the connections of many minions (a swarm of virtual minions): as
     * {@link #create()}, with {@code ioThreads} I/O threads sharing the connections instead of one, and at most
     * {@code subscriptionsPerThread} subscriptions polled by each subscription thread instead of 512. JeroMQ's
     * I/O thread walks every connection it owns whenever one of them changes what it waits for, and a
     * subscription thread's poll asks each of its sockets for its events, so thousands on one thread cost O(N)
     * per connect, request or publication received: O(N²) per job sent to all N.
     */
    static Transport createForManyMinions(int ioThreads, int subscriptionsPerThread) {
        return new ZmqTransport(ZmqTransport.MANY_MAX_SOCKETS, ioThreads, subscriptionsPerThread);
    }

    /** Binds a request server on {@code tcp://host:port} (port 0 picks a free one), with the default limits. */
    RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler);

    /**
     * Binds a request server that holds its clients to {@code limits}. A transport that wraps another must
     * pass the limits on; only one that has no sockets of its own may fall back on the defaults.
     */
    default RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        return bindRequestServer(host, port, workers, handler);
    }

    /**
     * Binds a request server of {@code kind} holding its clients to {@code limits}. A transport that wraps
     * another must pass the kind on; one with no choice of implementation may ignore it.
     */
    default RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler, RequestLimits limits,
            RequestServerKind kind) {
        return bindRequestServer(host, port, workers, handler, limits);
    }

    /** Binds a publisher on {@code tcp://host:port} (port 0 picks a free one). */
    PublishServer bindPublisher(String host, int port);

    /** A request client that accepts replies of any size JeroMQ can hold (a tool talking to its own master). */
    RequestClient connectRequestClient(String host, int port);

    /** A request client that drops its connection on a reply frame larger than {@code maxReplyBytes}. */
    default RequestClient connectRequestClient(String host, int port, long maxReplyBytes) {
        return connectRequestClient(host, port);
    }

    /**
     * Subscribes to a publisher; an empty topic list means every publication. Publications larger than
     * {@link ClientLimits#DEFAULT_MAX_PUBLICATION_BYTES} are refused.
     */
    Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener);

    /** As {@link #subscribe(String, int, List, PublicationListener)}, refusing publications larger than {@code maxPublicationBytes}. */
    default Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener, long maxPublicationBytes) {
        return subscribe(host, port, topics, listener);
    }

    @Override
    void close();
}
