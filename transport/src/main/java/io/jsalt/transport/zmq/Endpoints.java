package io.jsalt.transport.zmq;

import io.jsalt.transport.TransportException;
import org.zeromq.ZMQ;

/** Builds endpoint strings and applies the socket options every jsalt socket needs. */
final class Endpoints {
    /** JeroMQ 0.6.0 sometimes stalls a connecting socket in the ZMTP handshake: give up and retry. */
    static final int HANDSHAKE_IVL_MS = 2000;
    /**
     * A subscription's handshake waits for the publisher to accept it, and when thousands of minions
     * connect at once the publisher's accept queue holds a connection for seconds. Giving up after 2 s
     * sent each one back into the same queue and filled it with connections already abandoned: 10,000
     * minions on two cores were still not all subscribed after 12 minutes. The stall above hits
     * subscriptions too; they are nudged after their TCP connect ({@link ZmqSubscription}), so this timer
     * is only the last resort.
     */
    static final int SUBSCRIPTION_HANDSHAKE_IVL_MS = 10_000;
    /**
     * Pending connections a bound socket lets the kernel queue: Salt's zmq_backlog default. With JeroMQ's
     * 100, thousands of minions connecting at once (a master start) overflow the queue and wait out TCP's
     * SYN back-off (seconds, doubling) before they can subscribe.
     */
    static final int BACKLOG = 1000;

    private Endpoints() {}

    static String tcp(String host, int port) {
        if (port < 0 || port > 65535) {
            throw new TransportException("port out of range: " + port);
        }
        String h = "0.0.0.0".equals(host) ? "*" : host;
        return h.contains(":") && !h.startsWith("[") ? "tcp://[" + h + "]:" + port : "tcp://" + h + ":" + port;
    }

    static void prepareConnecting(ZMQ.Socket socket) {
        socket.setLinger(0);
        socket.setHandshakeIvl(HANDSHAKE_IVL_MS);
        socket.setReconnectIVL(100);
        socket.setReconnectIVLMax(5000);
    }

    /** Binds, turning JeroMQ's exception into one that names the endpoint; returns the bound port. */
    static int bind(ZMQ.Socket socket, String host, int port) {
        String endpoint = tcp(host, port);
        socket.setBacklog(BACKLOG);
        try {
            if (port == 0) {
                return socket.bindToRandomPort(endpoint.substring(0, endpoint.lastIndexOf(':')));
            }
            socket.bind(endpoint);
            return port;
        } catch (RuntimeException e) {
            throw new TransportException("cannot bind " + endpoint + ": " + e.getMessage(), e);
        }
    }
}
