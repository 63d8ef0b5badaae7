package io.jsalt.transport.zmq;

import io.jsalt.transport.HealthProbe;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.RequestServer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
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
 * ROUTER on the request port, feeding a pool of MWorker threads over inproc (Salt's ReqServer and MWorkers).
 * Unlike Salt's DEALER proxy, which deals requests round-robin even to a busy worker, the router hands a
 * request only to a worker that has said it is idle, and queues the rest: a slow request (a runner waiting
 * for minions) then never holds up the returns that queue behind it. The router thread owns the ROUTER and
 * the inproc backend; each worker thread owns its DEALER. Only well-formed REQ envelopes
 * {@code [identity, "", payload]} are accepted: anything else is logged and dropped, so a hostile client
 * cannot wedge a worker. A {@link HealthProbe} is answered by the router itself, even when every worker is
 * busy. Each worker has its own stop flag so that the pool can be resized and a dead worker restarted while
 * the others serve.
 */
final class ZmqRequestServer implements RequestServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqRequestServer.class);
    private static final int POLL_MS = 100;
    private static final long CLOSE_WAIT_MS = 2000;
    /** Requests waiting for a worker; beyond this the newest is dropped and its client retries, as on a timeout. */
    private static final int MAX_QUEUED = 100_000;
    /** Messages taken from one socket per poll, so neither side starves the other. */
    private static final int BATCH = 256;
    private static final byte[] EMPTY = new byte[0];
    /** Worker to router: ready for a request. */
    private static final byte[] READY = {1};
    /** Worker to router: leaving; router to worker: nothing more will be sent to you. */
    private static final byte[] BYE = {2};
    private final ZContext context;
    private final RequestLimits limits;
    /** What all client connections may hold together in frames larger than {@link RequestLimits#UNBUDGETED_FRAME_BYTES}. */
    private final InflightBudget budget;
    private FrameSizeGuard frameGuard;
    private final String backend = "inproc://jsalt-workers-" + UUID.randomUUID();
    private final RequestHandler handler;
    /** Guarded by {@code this}; index i is worker i. */
    private final List<Worker> pool = new ArrayList<>();
    private Thread router;
    private volatile boolean running = true;
    private volatile int port;

    private ZmqRequestServer(ZContext context, RequestHandler handler, RequestLimits limits) {
        this.context = context;
        this.handler = handler;
        this.limits = limits;
        this.budget = new InflightBudget(limits.maxInflightBytes());
    }

    static ZmqRequestServer start(ZContext context, String host, int port, int workers, RequestHandler handler) {
        return start(context, host, port, workers, handler, RequestLimits.DEFAULTS);
    }

    static ZmqRequestServer start(ZContext context, String host, int port, int workers, RequestHandler handler,
            RequestLimits limits) {
        ZmqRequestServer server = new ZmqRequestServer(context, handler, limits);
        server.startRouter(host, port);
        server.resize(workers);
        return server;
    }

    private void startRouter(String host, int requestedPort) {
        ZMQ.Socket routerSocket = context.createSocket(SocketType.ROUTER);
        ZMQ.Socket workers = context.createSocket(SocketType.ROUTER);
        try {
            routerSocket.setLinger(0);
            routerSocket.setRcvHWM(100_000);
            routerSocket.setSndHWM(100_000);
            routerSocket.setRouterMandatory(false);
            // anyone may connect here: a frame header declaring more than the limit gets its connection
            // dropped before anything is allocated, and the budget bounds what all connections hold at once
            frameGuard = new FrameSizeGuard(Endpoints.tcp(host, requestedPort), limits.maxRequestBytes(), budget,
                    RequestLimits.UNBUDGETED_FRAME_BYTES);
            routerSocket.setMsgAllocator(frameGuard);
            routerSocket.setMaxMsgSize(limits.maxRequestBytes());
            workers.setLinger(0);
            port = Endpoints.bind(routerSocket, host, requestedPort);
            workers.bind(backend);
        } catch (RuntimeException e) {
            context.destroySocket(routerSocket);
            context.destroySocket(workers);
            throw e;
        }
        router = new Thread(() -> route(routerSocket, workers), "jsalt-req-router-" + port);
        router.setDaemon(true);
        router.start();
    }

    private void route(ZMQ.Socket routerSocket, ZMQ.Socket workers) {
        ZMQ.Poller poller = context.createPoller(2);
        poller.register(routerSocket, ZMQ.Poller.POLLIN);
        poller.register(workers, ZMQ.Poller.POLLIN);
        Deque<ByteBuffer> idle = new ArrayDeque<>();
        Deque<ClientMessage> queued = new ArrayDeque<>();
        try {
            while (running && !Thread.currentThread().isInterrupted()) {
                if (poller.poll(POLL_MS) < 0) {
                    break;
                }
                // a poll costs far more than a receive, so take what is waiting, up to a batch per socket
                for (int i = 0; i < BATCH && poller.pollin(1); i++) {
                    List<byte[]> frames = receiveWaiting(workers);
                    if (frames == null) {
                        break;
                    }
                    fromWorker(frames, workers, routerSocket, idle);
                }
                for (int i = 0; i < BATCH && poller.pollin(0); i++) {
                    ClientMessage message = ClientMessage.receive(routerSocket);
                    if (message == null) {
                        break;
                    }
                    fromClient(message, routerSocket, queued);
                }
                while (!idle.isEmpty() && !queued.isEmpty()) {
                    ClientMessage next = queued.poll();
                    sendAll(workers, idle.poll().array(), EMPTY, next.frames());
                    next.release();
                }
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("request router on port {} stopped: {}", port, e.toString());
            }
        } finally {
            poller.close();
            context.destroySocket(routerSocket);
            awaitWorkersGone();
            context.destroySocket(workers);
        }
    }

    /**
     * Stops the workers and waits (bounded) until each has closed its DEALER, before the router closes the
     * inproc backend they are connected to. JeroMQ 0.6.0 mishandles both ends of an inproc pipe closing at
     * once while messages are still queued on it: its reaper then acknowledges to a socket already gone
     * ({@code slots[tid]} null), dies, and the context's termination waits for ever. Closing the DEALERs
     * first leaves the router's end to close alone.
     */
    private void awaitWorkersGone() {
        List<Thread> threads = new ArrayList<>();
        synchronized (this) {
            for (Worker w : pool) {
                w.running = false;
                threads.add(w.thread);
            }
        }
        joinWithin(threads);
    }

    /** {@code [worker, "", READY | BYE | client, "", reply]}: a reply goes back out and its worker is idle again. */
    private void fromWorker(List<byte[]> frames, ZMQ.Socket workers, ZMQ.Socket routerSocket, Deque<ByteBuffer> idle) {
        ByteBuffer worker = ByteBuffer.wrap(frames.get(0));
        List<byte[]> body = frames.subList(2, frames.size());
        if (body.size() == 1 && Arrays.equals(body.get(0), BYE)) {
            idle.remove(worker);
            sendAll(workers, frames.get(0), EMPTY, List.of(BYE));
            return;
        }
        if (body.size() == 3) {
            sendAll(routerSocket, body.get(0), EMPTY, List.of(body.get(2)));
        }
        idle.add(worker);
    }

    /** Queues a well-formed request for a worker; anything else gives its bytes back to the budget at once. */
    private void fromClient(ClientMessage message, ZMQ.Socket routerSocket, Deque<ClientMessage> queued) {
        if (accept(message, routerSocket, queued.size())) {
            queued.add(message);
        } else {
            message.release();
        }
    }

    private boolean accept(ClientMessage message, ZMQ.Socket routerSocket, int waiting) {
        List<byte[]> frames = message.frames();
        if (message.refused()) {
            log.debug("dropped a request on port {}: a frame of it did not fit max_inflight_request_bytes", port);
            return false;
        }
        if (frames.size() != 3 || frames.get(1).length != 0) {
            log.warn("dropped a malformed request on port {}: {} frames, not a REQ envelope", port, frames.size());
            return false;
        }
        if (HealthProbe.isProbe(frames.get(2))) {
            sendAll(routerSocket, frames.get(0), EMPTY, List.of(HealthProbe.answer()));
            return false;
        }
        if (waiting >= MAX_QUEUED) {
            log.warn("dropped a request on port {}: {} requests already wait for a worker", port, waiting);
            return false;
        }
        return true;
    }

    /** Sends {@code [address, delimiter, rest...]} as one message. */
    private static void sendAll(ZMQ.Socket socket, byte[] address, byte[] delimiter, List<byte[]> rest) {
        socket.send(address, ZMQ.SNDMORE);
        socket.send(delimiter, rest.isEmpty() ? 0 : ZMQ.SNDMORE);
        for (int i = 0; i < rest.size(); i++) {
            socket.send(rest.get(i), i < rest.size() - 1 ? ZMQ.SNDMORE : 0);
        }
    }

    /** The next whole message if one is waiting, else null; a message's frames arrive together. */
    private static List<byte[]> receiveWaiting(ZMQ.Socket socket) {
        byte[] first = socket.recv(ZMQ.DONTWAIT);
        if (first == null) {
            return null;
        }
        List<byte[]> frames = new ArrayList<>(3);
        frames.add(first);
        while (socket.hasReceiveMore()) {
            frames.add(socket.recv(0));
        }
        return frames;
    }

    @Override
    public int port() {
        return port;
    }

    /** Bytes held now in frames charged to the in-flight budget; for tests. */
    long inflightBytes() {
        return budget.used();
    }

    /** Frames refused so far because the in-flight budget was spent; for tests. */
    long refusedFrames() {
        return frameGuard.refusedFrames();
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

    /** Whether {@link #close} was called. */
    boolean closed() {
        return !running;
    }

    /** Tells the router and every worker to close their sockets and end; does not wait. */
    List<Thread> stop() {
        running = false;
        List<Thread> threads = new ArrayList<>();
        threads.add(router);
        synchronized (this) {
            for (Worker w : pool) {
                w.running = false;
                threads.add(w.thread);
            }
        }
        return threads;
    }

    @Override
    public void close() {
        List<Thread> threads = stop();
        joinWithin(threads);
    }

    /** One deadline for the whole pool: a worker stuck in a handler must not hold up a restart for long. */
    private static void joinWithin(List<Thread> threads) {
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

    /**
     * One MWorker: a thread owning one DEALER on the inproc backend. It says READY, then answers one request
     * at a time; leaving, it says BYE and serves what was already sent to it until the router confirms.
     */
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
            ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
            dealer.setLinger(0);
            dealer.setReceiveTimeOut(POLL_MS);
            dealer.connect(backend);
            connected.countDown();
            try {
                sendAll(dealer, EMPTY, READY, List.of());
                while (running && ZmqRequestServer.this.running) {
                    serveOne(dealer);
                }
                leave(dealer);
            } catch (RuntimeException | Error e) {
                // the thread ends; the master's process manager sees it dead and starts another
                if (running && ZmqRequestServer.this.running) {
                    log.error("worker {} stopped: {}", thread.getName(), e.toString());
                    sendQuietly(dealer, BYE);
                }
            } finally {
                context.destroySocket(dealer);
            }
        }

        /** Answers the request that arrives within the poll interval, if any; true when the router said BYE. */
        private boolean serveOne(ZMQ.Socket dealer) {
            byte[] first = dealer.recv(0);
            if (first == null) {
                return false;
            }
            List<byte[]> frames = new ArrayList<>(4);
            frames.add(first);
            while (dealer.hasReceiveMore()) {
                frames.add(dealer.recv(0));
            }
            // ["", client, "", payload] or ["", BYE]
            if (frames.size() == 2 && Arrays.equals(frames.get(1), BYE)) {
                return true;
            }
            sendAll(dealer, EMPTY, frames.get(1), List.of(EMPTY, answer(frames.get(3))));
            return false;
        }

        private void leave(ZMQ.Socket dealer) {
            if (!ZmqRequestServer.this.running) {
                return;
            }
            sendAll(dealer, EMPTY, BYE, List.of());
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
            while (System.nanoTime() < deadline && ZmqRequestServer.this.running) {
                if (serveOne(dealer)) {
                    return;
                }
            }
        }

        private void sendQuietly(ZMQ.Socket dealer, byte[] signal) {
            try {
                sendAll(dealer, EMPTY, signal, List.of());
            } catch (RuntimeException ignored) {
                // the router learns nothing; it never gives this worker another request anyway
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
