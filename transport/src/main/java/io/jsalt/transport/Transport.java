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

    /** Binds a request server on {@code tcp://host:port} (port 0 picks a free one). */
    RequestServer bindRequestServer(String host, int port, int workers, RequestHandler handler);

    /** Binds a publisher on {@code tcp://host:port} (port 0 picks a free one). */
    PublishServer bindPublisher(String host, int port);

    RequestClient connectRequestClient(String host, int port);

    /** Subscribes to a publisher; an empty topic list means every publication. */
    Subscription subscribe(String host, int port, List<byte[]> topics, PublicationListener listener);

    @Override
    void close();
}
