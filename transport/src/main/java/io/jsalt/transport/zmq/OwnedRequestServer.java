package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestServer;
import java.util.List;

/** A request server as its transport and the tests see it: stopped with the transport, its budget observable. */
interface OwnedRequestServer extends RequestServer {
    /** Bytes held now in frames charged to the in-flight budget. */
    long inflightBytes();

    /** Frames refused so far: above max_request_size, or for want of in-flight budget. */
    long refusedFrames();

    /** Whether {@link #close} (or {@link #stop}) was called. */
    boolean closed();

    /** Tells the server's threads to close their sockets and end; does not wait. Returns the threads. */
    List<Thread> stop();
}
