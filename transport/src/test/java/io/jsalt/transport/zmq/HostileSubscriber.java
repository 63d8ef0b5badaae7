package io.jsalt.transport.zmq;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A real JeroMQ SUB socket that subscribes whatever it is told, however long, on a thread of its own with a
 * stack large enough for its own subscription trie (the SUB keeps one too, and it recurses as the
 * publisher's does). The thread owns the socket and keeps processing its commands, so that the SUB sends
 * its subscriptions again after each reconnect, as any SUB does.
 */
final class HostileSubscriber implements AutoCloseable {
    private static final long STACK_BYTES = 512L * 1024 * 1024;

    private final ConcurrentLinkedQueue<byte[]> topics = new ConcurrentLinkedQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;

    HostileSubscriber(String endpoint, List<byte[]> initialTopics) {
        topics.addAll(initialTopics);
        thread = new Thread(null, () -> run(endpoint), "hostile-subscriber", STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
    }

    /** Subscribes one more topic (on the socket's thread). */
    void subscribe(byte[] topic) {
        topics.add(topic);
    }

    private void run(String endpoint) {
        try (ZContext context = new ZContext()) {
            ZMQ.Socket sub = context.createSocket(SocketType.SUB);
            sub.setLinger(0);
            sub.setReconnectIVL(50);
            sub.setHandshakeIvl(Endpoints.HANDSHAKE_IVL_MS); // a handshake that stalls (JeroMQ) is retried, as every jsalt SUB does
            sub.connect(endpoint);
            ZMQ.Poller poller = context.createPoller(1);
            poller.register(sub, ZMQ.Poller.POLLIN);
            while (running) {
                byte[] topic;
                while ((topic = topics.poll()) != null) {
                    sub.subscribe(topic);
                }
                poller.poll(20); // runs the socket's pending commands: reconnects resend every subscription
                while (sub.recv(ZMQ.DONTWAIT) != null) {
                    // publications are of no interest
                }
            }
            poller.close();
        } finally {
            stopped.countDown();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        stopped.await(5, TimeUnit.SECONDS);
    }
}
