package io.jsalt.bench.swarm.zmtp;

import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.PublicationListener;
import io.jsalt.transport.Subscription;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One minion's subscription: its own ZMTP 3 SUB connection to the master's publisher, subscribing to its own
 * topics as a JeroMQ SUB does, reconnecting as JeroMQ does (100 ms, doubling up to 5 s). Each publication's last
 * frame goes to the listener on the loop thread, which must only hand it on.
 */
final class NioSubscription extends ClientConnection implements Subscription {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(NioSubscription.class);
    static final long RECONNECT_MIN_MS = 100;
    static final long RECONNECT_MAX_MS = 5000;

    private final List<byte[]> topics;
    private final PublicationListener listener;
    private final CountDownLatch connected = new CountDownLatch(1);
    private volatile ConnectionListener connectionListener;
    private volatile boolean closed;
    private long reconnectMs = RECONNECT_MIN_MS;

    private NioSubscription(SelectorLoop loop, InetSocketAddress address, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        super(loop, address, "SUB", maxPublicationBytes);
        // an empty list means every publication: JeroMQ's SUB is then subscribed to the empty prefix
        this.topics = topics.isEmpty() ? List.of(new byte[0]) : topics.stream().map(byte[]::clone).toList();
        this.listener = listener;
    }

    static NioSubscription start(SelectorLoop loop, InetSocketAddress address, List<byte[]> topics, PublicationListener listener,
            long maxPublicationBytes) {
        NioSubscription s = new NioSubscription(loop, address, topics, listener, maxPublicationBytes);
        loop.execute(s::openNow);
        return s;
    }

    private void openNow() {
        if (closed || open()) {
            return;
        }
        try {
            connect();
        } catch (IOException e) {
            lost(false, e.toString());
        }
    }

    @Override
    boolean peerFits(String peerType) {
        return "PUB".equals(peerType) || "XPUB".equals(peerType);
    }

    @Override
    void handshaken() throws IOException {
        for (byte[] topic : topics) {
            send(ZmtpPeerBytes.subscribe(topic));
        }
        reconnectMs = RECONNECT_MIN_MS;
        connected.countDown();
        ConnectionListener l = connectionListener;
        if (l != null) {
            l.onConnected();
        }
    }

    @Override
    void received(List<byte[]> frames) {
        if (!matches(frames.get(0))) {
            return; // a SUB filters too: a publisher need not
        }
        byte[] payload = frames.get(frames.size() - 1); // [topic, payload] with zmq_filtering: keep the payload
        if (payload.length == 0) {
            return;
        }
        try {
            listener.onPublication(payload);
        } catch (RuntimeException e) {
            log.warn("dropped a publication: {}", e.toString());
        }
    }

    private boolean matches(byte[] first) {
        for (byte[] topic : topics) {
            if (first.length >= topic.length && Arrays.equals(first, 0, topic.length, topic, 0, topic.length)) {
                return true;
            }
        }
        return false;
    }

    @Override
    void lost(boolean wasHandshaken, String why) {
        ConnectionListener l = connectionListener;
        if (wasHandshaken && l != null) {
            l.onDisconnected();
        }
        if (!closed && !loop.closing()) {
            loop.schedule(reconnectMs, this::openNow);
            reconnectMs = Math.min(RECONNECT_MAX_MS, reconnectMs * 2);
        }
    }

    @Override
    public boolean awaitConnected(Duration timeout) {
        try {
            return connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void connectionListener(ConnectionListener listener) {
        this.connectionListener = listener;
    }

    @Override
    public void close() {
        closed = true;
        loop.execute(this::closeChannel);
    }
}
