package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * ROUTER on the request port, proxied to {@code workers} REP sockets over inproc (Salt's ReqServer and
 * MWorkers). The router thread owns the ROUTER and DEALER; each worker thread owns its REP. The proxy
 * only forwards well-formed REQ envelopes {@code [identity, "", payload]}: anything else is logged once
 * and dropped, so a hostile client cannot wedge a worker.
 */
final class ZmqRequestServer implements RequestServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqRequestServer.class);
    private static final int POLL_MS = 100;

    private final ZContext context;
    private final String backend = "inproc://jsalt-workers-" + UUID.randomUUID();
    private final RequestHandler handler;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    private volatile int port;

    private ZmqRequestServer(ZContext context, RequestHandler handler) {
        this.context = context;
        this.handler = handler;
    }

    static ZmqRequestServer start(ZContext context, String host, int port, int workers, RequestHandler handler) {
        ZmqRequestServer server = new ZmqRequestServer(context, handler);
        server.startRouter(host, port);
        for (int i = 0; i < workers; i++) {
            server.startWorker(i);
        }
        return server;
    }

    private void startRouter(String host, int requestedPort) {
        ZMQ.Socket router = context.createSocket(SocketType.ROUTER);
        ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
        try {
            router.setLinger(0);
            router.setRcvHWM(100_000);
            router.setSndHWM(100_000);
            router.setRouterMandatory(false);
            dealer.setLinger(0);
            port = Endpoints.bind(router, host, requestedPort);
            dealer.bind(backend);
        } catch (RuntimeException e) {
            context.destroySocket(router);
            context.destroySocket(dealer);
            throw e;
        }
        Thread t = new Thread(() -> route(router, dealer), "jsalt-req-router-" + port);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void route(ZMQ.Socket router, ZMQ.Socket dealer) {
        ZMQ.Poller poller = context.createPoller(2);
        poller.register(router, ZMQ.Poller.POLLIN);
        poller.register(dealer, ZMQ.Poller.POLLIN);
        try {
            while (running && !Thread.currentThread().isInterrupted()) {
                if (poller.poll(POLL_MS) < 0) {
                    break;
                }
                if (poller.pollin(0)) {
                    forwardRequest(router, dealer);
                }
                if (poller.pollin(1)) {
                    forwardAll(dealer, router);
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("request router on port {} stopped: {}", port, e.toString());
            }
        } finally {
            poller.close();
            context.destroySocket(router);
            context.destroySocket(dealer);
        }
    }

    private void forwardRequest(ZMQ.Socket router, ZMQ.Socket dealer) {
        List<byte[]> frames = receiveAll(router);
        if (frames.size() != 3 || frames.get(1).length != 0) {
            log.warn("dropped a malformed request on port {}: {} frames, not a REQ envelope", port, frames.size());
            return;
        }
        for (int i = 0; i < frames.size(); i++) {
            dealer.send(frames.get(i), i < frames.size() - 1 ? ZMQ.SNDMORE : 0);
        }
    }

    private static void forwardAll(ZMQ.Socket from, ZMQ.Socket to) {
        List<byte[]> frames = receiveAll(from);
        for (int i = 0; i < frames.size(); i++) {
            to.send(frames.get(i), i < frames.size() - 1 ? ZMQ.SNDMORE : 0);
        }
    }

    private static List<byte[]> receiveAll(ZMQ.Socket socket) {
        List<byte[]> frames = new ArrayList<>(3);
        do {
            frames.add(socket.recv(0));
        } while (socket.hasReceiveMore());
        return frames;
    }

    private void startWorker(int index) {
        CountDownLatch connected = new CountDownLatch(1);
        Thread t = new Thread(() -> work(connected), "jsalt-mworker-" + index);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        try {
            connected.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void work(CountDownLatch connected) {
        ZMQ.Socket rep = context.createSocket(SocketType.REP);
        rep.setLinger(0);
        rep.setReceiveTimeOut(POLL_MS);
        rep.connect(backend);
        connected.countDown();
        try {
            while (running) {
                byte[] request = rep.recv(0);
                if (request == null) {
                    continue;
                }
                rep.send(answer(request), 0);
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("worker {} stopped: {}", Thread.currentThread().getName(), e.toString());
            }
        } finally {
            context.destroySocket(rep);
        }
    }

    private byte[] answer(byte[] request) {
        try {
            byte[] reply = handler.handle(request);
            return reply == null ? new byte[0] : reply;
        } catch (RuntimeException e) {
            log.warn("request handler failed: {}", e.toString());
            return new byte[0];
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
