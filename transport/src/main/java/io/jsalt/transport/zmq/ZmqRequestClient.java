package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.TransportException;
import java.time.Duration;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A REQ socket to the master's request port, as Salt's minion uses. A REQ socket that missed its reply
 * is stuck, so a timeout closes it and the next request gets a fresh one. Requests are serialised by a
 * lock; the socket is only touched while holding it.
 */
final class ZmqRequestClient implements RequestClient {
    private final ZContext context;
    private final String endpoint;
    private ZMQ.Socket socket;
    private boolean closed;

    ZmqRequestClient(ZContext context, String endpoint) {
        this.context = context;
        this.endpoint = endpoint;
    }

    @Override
    public synchronized byte[] request(byte[] payload, Duration timeout) {
        if (closed) {
            throw new TransportException("request client to " + endpoint + " is closed");
        }
        ZMQ.Socket s = socket();
        if (!s.send(payload, 0)) {
            discardSocket();
            throw new TransportException("cannot send to " + endpoint);
        }
        ZMQ.Poller poller = context.createPoller(1);
        try {
            poller.register(s, ZMQ.Poller.POLLIN);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                if (poller.poll(left) > 0 && poller.pollin(0)) {
                    byte[] reply = s.recv(0);
                    while (s.hasReceiveMore()) {
                        reply = s.recv(0);
                    }
                    return reply;
                }
                if (System.nanoTime() >= deadline) {
                    discardSocket();
                    throw new RequestTimeoutException("no answer from " + endpoint + " within " + timeout.toMillis() + " ms");
                }
            }
        } finally {
            poller.close();
        }
    }

    private ZMQ.Socket socket() {
        if (socket == null) {
            socket = context.createSocket(SocketType.REQ);
            Endpoints.prepareConnecting(socket);
            socket.connect(endpoint);
        }
        return socket;
    }

    private void discardSocket() {
        if (socket != null) {
            context.destroySocket(socket);
            socket = null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        discardSocket();
    }
}
