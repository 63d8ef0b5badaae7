package io.jsalt.transport.zmq;

import io.jsalt.transport.HealthProbe;
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
 * ROUTER on the request port, proxied to a pool of REP workers over inproc (Salt's ReqServer and
 * MWorkers). The router thread owns the ROUTER and DEALER; each worker thread owns its REP. The proxy
 * only forwards well-formed REQ envelopes {@code [identity, "", payload]}: anything else is logged once
 * and dropped, so a hostile client cannot wedge a worker. A {@link HealthProbe} is answered by the router
 * itself. Each worker has its own stop flag so that the
 * pool can be resized and a dead worker restarted while the others serve.
 */
final class ZmqRequestServer implements RequestServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqRequestServer.class);
    private static final int POLL_MS = 100;
    private static final long CLOSE_WAIT_MS = 2000;

    private final ZContext context;
    private final String backend = "inproc://jsalt-workers-" + UUID.randomUUID();
    private final RequestHandler handler;
    /** Guarded by {@code this}; index i is worker i. */
    private final List<Worker> pool = new ArrayList<>();
    private Thread router;
    private volatile boolean running = true;
    private volatile int port;

    private ZmqRequestServer(ZContext context, RequestHandler handler) {
        this.context = context;
        this.handler = handler;
    }

    static ZmqRequestServer start(ZContext context, String host, int port, int workers, RequestHandler handler) {
        ZmqRequestServer server = new ZmqRequestServer(context, handler);
        server.startRouter(host, port);
        server.resize(workers);
        return server;
    }

    private void startRouter(String host, int requestedPort) {
        ZMQ.Socket routerSocket = context.createSocket(SocketType.ROUTER);
        ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
        try {
            routerSocket.setLinger(0);
            routerSocket.setRcvHWM(100_000);
            routerSocket.setSndHWM(100_000);
            routerSocket.setRouterMandatory(false);
            routerSocket.setMsgAllocator(new FrameSizeGuard(Endpoints.tcp(host, requestedPort)));
            dealer.setLinger(0);
            port = Endpoints.bind(routerSocket, host, requestedPort);
            dealer.bind(backend);
        } catch (RuntimeException e) {
            context.destroySocket(routerSocket);
            context.destroySocket(dealer);
            throw e;
        }
        router = new Thread(() -> route(routerSocket, dealer), "jsalt-req-router-" + port);
        router.setDaemon(true);
        router.start();
    }

    private void route(ZMQ.Socket routerSocket, ZMQ.Socket dealer) {
        ZMQ.Poller poller = context.createPoller(2);
        poller.register(routerSocket, ZMQ.Poller.POLLIN);
        poller.register(dealer, ZMQ.Poller.POLLIN);
        try {
            while (running && !Thread.currentThread().isInterrupted()) {
                if (poller.poll(POLL_MS) < 0) {
                    break;
                }
                if (poller.pollin(0)) {
                    forwardRequest(routerSocket, dealer);
                }
                if (poller.pollin(1)) {
                    forwardAll(dealer, routerSocket);
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("request router on port {} stopped: {}", port, e.toString());
            }
        } finally {
            poller.close();
            context.destroySocket(routerSocket);
            context.destroySocket(dealer);
        }
    }

    private void forwardRequest(ZMQ.Socket routerSocket, ZMQ.Socket dealer) {
        List<byte[]> frames = receiveAll(routerSocket);
        if (frames.size() != 3 || frames.get(1).length != 0) {
            log.warn("dropped a malformed request on port {}: {} frames, not a REQ envelope", port, frames.size());
            return;
        }
        if (HealthProbe.isProbe(frames.get(2))) {
            routerSocket.send(frames.get(0), ZMQ.SNDMORE);
            routerSocket.send(frames.get(1), ZMQ.SNDMORE);
            routerSocket.send(HealthProbe.answer(), 0);
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

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean isAlive() {
        return router.isAlive();
    }

    @Override
    public synchronized int workers() {
        return pool.size();
    }

    @Override
    public synchronized boolean isWorkerAlive(int index) {
        return pool.get(index).thread.isAlive();
    }

    @Override
    public synchronized void restartWorker(int index) {
        if (!running || pool.get(index).thread.isAlive()) {
            return;
        }
        Worker fresh = new Worker(index);
        pool.set(index, fresh);
        fresh.start();
    }

    @Override
    public synchronized void resize(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("a request server needs at least one worker, not " + workers);
        }
        while (pool.size() < workers) {
            Worker w = new Worker(pool.size());
            pool.add(w);
            w.start();
        }
        while (pool.size() > workers) {
            pool.remove(pool.size() - 1).running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        List<Thread> threads = new ArrayList<>();
        threads.add(router);
        synchronized (this) {
            for (Worker w : pool) {
                w.running = false;
                threads.add(w.thread);
            }
        }
        // one deadline for the whole pool: a worker stuck in a handler must not hold up a restart for long
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        for (Thread t : threads) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                t.join(Math.max(1, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One MWorker: a thread owning one REP socket on the inproc backend. */
    private final class Worker {
        final Thread thread;
        final CountDownLatch connected = new CountDownLatch(1);
        volatile boolean running = true;

        Worker(int index) {
            thread = new Thread(this::work, "jsalt-mworker-" + index);
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
            try {
                connected.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void work() {
            ZMQ.Socket rep = context.createSocket(SocketType.REP);
            rep.setLinger(0);
            rep.setReceiveTimeOut(POLL_MS);
            rep.connect(backend);
            connected.countDown();
            try {
                while (running && ZmqRequestServer.this.running) {
                    byte[] request = rep.recv(0);
                    if (request == null) {
                        continue;
                    }
                    rep.send(answer(request), 0);
                }
            } catch (RuntimeException | Error e) {
                // the thread ends; the master's process manager sees it dead and starts another
                if (running && ZmqRequestServer.this.running) {
                    log.error("worker {} stopped: {}", thread.getName(), e.toString());
                }
            } finally {
                context.destroySocket(rep);
            }
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
}
