package io.jsalt.transport.zmq;

import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.Subscription;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A SUB socket owned by its own receiver thread, which hands each payload frame to the listener and the
 * socket monitor's handshake and disconnect events to the connection listener.
 */
final class ZmqSubscription implements Subscription {
    private static final Logger log = LoggerFactory.getLogger(ZmqSubscription.class);

    private final ZContext context;
    private final String endpoint;
    private final List<byte[]> topics;
    private final PublicationListener listener;
    private final Thread receiver;
    private final java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
    private final String monitorEndpoint = "inproc://jsalt-sub-monitor-" + java.util.UUID.randomUUID();
    private volatile boolean running = true;
    private volatile ConnectionListener connectionListener;

    private ZmqSubscription(ZContext context, String endpoint, List<byte[]> topics, PublicationListener listener) {
        this.context = context;
        this.endpoint = endpoint;
        this.topics = List.copyOf(topics);
        this.listener = listener;
        this.receiver = new Thread(this::receive, "jsalt-sub-" + endpoint);
        receiver.setDaemon(true);
    }

    static ZmqSubscription start(ZContext context, String endpoint, List<byte[]> topics, PublicationListener listener) {
        ZmqSubscription s = new ZmqSubscription(context, endpoint, topics, listener);
        s.receiver.start();
        return s;
    }

    private void receive() {
        ZMQ.Socket sub = context.createSocket(SocketType.SUB);
        ZMQ.Socket monitor = context.createSocket(SocketType.PAIR);
        ZMQ.Poller poller = context.createPoller(2);
        try {
            Endpoints.prepareConnecting(sub);
            sub.setRcvHWM(100_000);
            if (topics.isEmpty()) {
                sub.subscribe(new byte[0]);
            } else {
                topics.forEach(sub::subscribe);
            }
            sub.monitor(monitorEndpoint, ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED);
            monitor.connect(monitorEndpoint);
            sub.connect(endpoint);
            poller.register(sub, ZMQ.Poller.POLLIN);
            poller.register(monitor, ZMQ.Poller.POLLIN);
            while (running) {
                if (poller.poll(100) <= 0) {
                    continue;
                }
                if (poller.pollin(1)) {
                    onMonitorEvent(ZMQ.Event.recv(monitor, ZMQ.DONTWAIT));
                }
                if (poller.pollin(0)) {
                    receiveOne(sub);
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("subscription to {} stopped: {}", endpoint, e.toString());
            }
        } finally {
            poller.close();
            context.destroySocket(monitor);
            context.destroySocket(sub);
        }
    }

    private void onMonitorEvent(ZMQ.Event event) {
        if (event == null) {
            return;
        }
        ConnectionListener l = connectionListener;
        try {
            if (event.getEvent() == ZMQ.EVENT_HANDSHAKE_PROTOCOL) {
                connected.countDown();
                if (l != null) {
                    l.onConnected();
                }
            } else if (event.getEvent() == ZMQ.EVENT_DISCONNECTED && l != null) {
                l.onDisconnected();
            }
        } catch (RuntimeException e) {
            log.warn("connection listener failed: {}", e.toString());
        }
    }

    private void receiveOne(ZMQ.Socket sub) {
        byte[] frame = sub.recv(ZMQ.DONTWAIT);
        if (frame == null) {
            return;
        }
        while (sub.hasReceiveMore()) {
            frame = sub.recv(0); // [topic, payload] with zmq_filtering: keep the payload
        }
        deliver(frame);
    }

    @Override
    public boolean awaitConnected(java.time.Duration timeout) {
        try {
            return connected.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void connectionListener(ConnectionListener listener) {
        this.connectionListener = listener;
    }

    private void deliver(byte[] payload) {
        try {
            listener.onPublication(payload);
        } catch (RuntimeException e) {
            log.warn("publication listener failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        running = false;
        if (Thread.currentThread() != receiver) {
            try {
                receiver.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
