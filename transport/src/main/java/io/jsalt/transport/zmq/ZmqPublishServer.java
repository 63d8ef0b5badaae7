package io.jsalt.transport.zmq;

import io.jsalt.transport.PublishServer;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** The PUB socket, owned by one sender thread; other threads hand it frames through a queue. */
final class ZmqPublishServer implements PublishServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqPublishServer.class);

    private record Publication(byte[] topic, byte[] payload) {}

    private final LinkedBlockingQueue<Publication> queue = new LinkedBlockingQueue<>();
    private final ZContext context;
    private final ZMQ.Socket pub;
    private final int port;
    private final Thread sender;
    private volatile boolean running = true;

    private ZmqPublishServer(ZContext context, String host, int requestedPort) {
        this.context = context;
        this.pub = context.createSocket(SocketType.PUB);
        pub.setLinger(0);
        pub.setSndHWM(100_000);
        pub.setMsgAllocator(new FrameSizeGuard(Endpoints.tcp(host, requestedPort)));
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
        ZmqPublishServer server = new ZmqPublishServer(context, host, port);
        server.sender.start();
        return server;
    }

    private void send() {
        try {
            while (running) {
                Publication p = queue.poll(100, TimeUnit.MILLISECONDS);
                if (p == null) {
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

    @Override
    public void close() {
        running = false;
        try {
            sender.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
