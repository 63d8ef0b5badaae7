package io.jsalt.transport.zmq;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.message.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The publish socket, owned by one sender thread; other threads hand it frames through a queue. It is an
 * XPUB, which publishes exactly as a PUB does and also hands its owner {@code \x01topic} when a topic gets
 * its first subscriber and {@code \x00topic} when its last one unsubscribes or its connection closes (the
 * XPUB counts the peers of each topic itself). It stays non-verbose on purpose: JeroMQ 0.6.0 reports a
 * closed connection's topics only when no other peer holds them, even with XPUB_VERBOSER, so counting the
 * verbose messages here would never come back to zero. A hand-made peer that cancels a topic it never held
 * makes JeroMQ report that topic gone although others hold it (ZeroMQ SUB sockets never send that). The
 * sender thread reads these messages between publications: the master's presence.
 */
final class ZmqPublishServer implements PublishServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqPublishServer.class);

    private record Publication(byte[] topic, byte[] payload) {}

    /** Queued by {@link #stop}: wakes the sender at once instead of at its next poll. */
    private static final Publication STOP = new Publication(null, null);
    /** A subscription frame: the flag byte (1 subscribe, 0 cancel) and a topic of at most {@link Topics#MAX_BYTES}. */
    static final int MAX_SUBSCRIPTION_FRAME_BYTES = 1 + Topics.MAX_BYTES;
    /**
     * Distinct topics the subscribers may hold at once: a minion holds one topic of its own (its presence
     * topic or its sha1 topic) besides {@code ""} or {@code broadcast}, so this serves 131,070 minions. The
     * XPUB keeps every topic in its trie (about 2.5 KiB for a random 40-byte one) and says nothing of which
     * peer sent it, so a flood of made-up topics cannot be charged to its sender: past this number the
     * publisher stops, and the master's supervisor binds a fresh one, dropping the flood with the trie.
     */
    static final int MAX_TOPICS = 131_072;

    private final LinkedBlockingQueue<Publication> queue = new LinkedBlockingQueue<>();
    /** The topics with at least one subscriber; written by the sender thread only, read by anyone. */
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
    private final ZContext context;
    private final ZMQ.Socket pub;
    private final int port;
    private final int maxTopics;
    private final Thread sender;
    private volatile boolean running = true;

    private ZmqPublishServer(ZContext context, String host, int requestedPort, int maxTopics) {
        this.context = context;
        this.maxTopics = maxTopics;
        this.pub = context.createSocket(SocketType.XPUB);
        pub.setLinger(0);
        pub.setSndHWM(100_000);
        pub.setMsgAllocator(new FrameSizeGuard(Endpoints.tcp(host, requestedPort), MAX_SUBSCRIPTION_FRAME_BYTES));
        // subscribers only send (un)subscriptions, a flag byte and a topic; the XPUB adds each to a trie that
        // recurses once per byte (8,000 bytes overflow the thread's stack), so a longer frame gets the peer
        // dropped by the decoder before it reaches the trie. The handshake's READY command of a SUB (25 bytes)
        // is decoded under the same limit.
        pub.setMaxMsgSize(MAX_SUBSCRIPTION_FRAME_BYTES);
        try {
            this.port = Endpoints.bind(pub, host, requestedPort);
        } catch (RuntimeException e) {
            context.destroySocket(pub);
            throw e;
        }
        this.sender = new Thread(this::send, "jsalt-publisher-" + port);
        sender.setDaemon(true);
    }

    static ZmqPublishServer start(ZContext context, String host, int port) {
        return start(context, host, port, MAX_TOPICS);
    }

    /** With room for {@code maxTopics} distinct topics; for tests. */
    static ZmqPublishServer start(ZContext context, String host, int port, int maxTopics) {
        ZmqPublishServer server = new ZmqPublishServer(context, host, port, maxTopics);
        server.sender.start();
        return server;
    }

    private void send() {
        try {
            while (running) {
                readSubscriptions();
                Publication p = queue.poll(50, TimeUnit.MILLISECONDS);
                if (p == null || p == STOP) {
                    continue;
                }
                if (p.topic() != null) {
                    pub.send(p.topic(), ZMQ.SNDMORE);
                }
                pub.send(p.payload(), 0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            // the thread ends; the master's process manager sees it dead and binds another publisher
            if (running) {
                log.error("publisher on port {} stopped: {}", port, e.toString());
            }
        } finally {
            context.destroySocket(pub);
        }
    }

    /** Drains the (un)subscriptions the XPUB has queued; a non-blocking read also runs its pending commands. */
    private void readSubscriptions() {
        byte[] frame;
        while ((frame = pub.recv(ZMQ.DONTWAIT)) != null) {
            while (pub.hasReceiveMore()) {
                pub.recv(0); // a SUB sends nothing else; a raw peer's other frames are dropped
            }
            if (frame.length == 0 || (frame[0] != 0 && frame[0] != 1)) {
                continue;
            }
            String topic = new String(frame, 1, frame.length - 1, StandardCharsets.ISO_8859_1);
            if (frame[0] == 1) {
                if (subscribed.size() >= maxTopics) {
                    throw new IllegalStateException("subscribers hold more than " + maxTopics
                            + " distinct topics, more than any set of minions needs: a flood of made-up topics");
                }
                subscribed.add(topic);
            } else {
                subscribed.remove(topic);
            }
        }
    }

    @Override
    public Set<String> subscribedTopics() {
        return Set.copyOf(subscribed);
    }

    @Override
    public void publish(byte[] payload) {
        queue.add(new Publication(null, payload));
    }

    @Override
    public void publish(byte[] topic, byte[] payload) {
        queue.add(new Publication(topic, payload));
    }

    @Override
    public boolean isAlive() {
        return sender.isAlive();
    }

    @Override
    public int port() {
        return port;
    }

    /** Tells the sender thread to close the socket and end; does not wait. */
    void stop() {
        running = false;
        queue.add(STOP);
    }

    @Override
    public void close() {
        stop();
        try {
            sender.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
