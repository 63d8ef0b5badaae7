package io.jsalt.transport.zmq;

import io.jsalt.transport.HealthProbe;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * ROUTER on the request port, feeding a pool of MWorker threads (Salt's ReqServer and MWorkers). Unlike
 * Salt's DEALER proxy, which deals requests round-robin even to a busy worker, requests wait in one queue that
 * only an idle worker takes from: a slow request (a runner waiting for minions) then never holds up the
 * returns that queue behind it. The router thread alone owns the ROUTER socket (a ZeroMQ socket serves one
 * thread); the hand-off to the workers and back is through Java queues ({@link WorkerHandOff}), which cost a
 * fraction of what an inproc socket pair per worker did (a poll, a mailbox signal and a copy of every frame
 * each way). Only well-formed REQ envelopes {@code [identity, "", payload]} are accepted: anything else is
 * logged and dropped, so a hostile client cannot wedge a worker. A {@link HealthProbe} is answered by the
 * router itself, even when every worker is busy. Each worker has its own stop flag so that the pool can be
 * resized and a dead worker restarted while the others serve.
 */
final class ZmqRequestServer implements OwnedRequestServer {
    private static final Logger log = LoggerFactory.getLogger(ZmqRequestServer.class);
    private static final long POLL_MS = WorkerPool.POLL_MS;
    private static final long CLOSE_WAIT_MS = 2000;
    /** Requests waiting for a worker; beyond this the newest is dropped and its client retries, as on a timeout. */
    private static final int MAX_QUEUED = 100_000;
    /** Messages taken from the client socket in one pass, so replies waiting to go out are not starved. */
    private static final int BATCH = 256;
    private static final byte[] EMPTY = new byte[0];
    private final ZContext context;
    private final RequestLimits limits;
    /** What all client connections may hold together in frames larger than {@link RequestLimits#UNBUDGETED_FRAME_BYTES}. */
    private final InflightBudget budget;
    private FrameSizeGuard frameGuard;
    private final RequestHandler handler;
    private final WorkerHandOff handOff;
    private final WorkerPool pool;
    private Thread router;
    private volatile boolean running = true;
    private volatile int port;

    private ZmqRequestServer(ZContext context, RequestHandler handler, RequestLimits limits) {
        this.context = context;
        this.handler = handler;
        this.limits = limits;
        this.budget = new InflightBudget(limits.maxInflightBytes());
        this.handOff = WorkerHandOff.open();
        this.pool = new WorkerPool(this::serveNext, () -> running);
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
            port = Endpoints.bind(routerSocket, host, requestedPort);
        } catch (RuntimeException e) {
            context.destroySocket(routerSocket);
            handOff.close();
            throw e;
        }
        router = new Thread(() -> route(routerSocket), "jsalt-req-router-" + port);
        router.setDaemon(true);
        router.start();
    }

    private void route(ZMQ.Socket routerSocket) {
        ZMQ.Poller poller = context.createPoller(2);
        poller.register(routerSocket, ZMQ.Poller.POLLIN);
        poller.register(handOff.wakeUpChannel(), ZMQ.Poller.POLLIN);
        try {
            while (running && !Thread.currentThread().isInterrupted()) {
                // a poll costs far more than a receive: poll only when a pass found nothing to do
                boolean worked = sendReplies(routerSocket) | receiveRequests(routerSocket);
                if (worked) {
                    continue;
                }
                handOff.routerSleeping(true);
                try {
                    if (handOff.hasReplies()) {
                        continue; // a worker answered before it could see the router asleep
                    }
                    if (poller.poll(POLL_MS) < 0) {
                        break;
                    }
                } finally {
                    handOff.routerSleeping(false);
                }
                handOff.afterPoll(poller.pollin(1));
            }
        } catch (RuntimeException e) {
            if (running) {
                log.error("request router on port {} stopped: {}", port, e.toString());
            }
        } finally {
            // the workers own no socket: told to end, they leave within a poll of the queue (a handler still
            // running finishes first, and its reply is dropped with the hand-off)
            stopWorkers();
            handOff.close();
            poller.close();
            context.destroySocket(routerSocket);
        }
    }

    /** Sends every reply the workers have left; true when there was one. */
    private boolean sendReplies(ZMQ.Socket routerSocket) {
        boolean any = false;
        for (WorkerHandOff.Reply reply = handOff.nextReply(); reply != null; reply = handOff.nextReply()) {
            send(routerSocket, reply.client(), reply.payload());
            any = true;
        }
        return any;
    }

    /** Takes up to a batch of waiting client messages; true when there was one. */
    private boolean receiveRequests(ZMQ.Socket routerSocket) {
        boolean any = false;
        for (int i = 0; i < BATCH; i++) {
            ClientMessage message = ClientMessage.receive(routerSocket);
            if (message == null) {
                break;
            }
            any = true;
            if (accept(message, routerSocket, handOff.waiting())) {
                handOff.request(message);
            } else {
                message.release(); // its bytes go back to the budget at once
            }
        }
        return any;
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
            send(routerSocket, frames.get(0), HealthProbe.answer());
            return false;
        }
        if (waiting >= MAX_QUEUED) {
            log.warn("dropped a request on port {}: {} requests already wait for a worker", port, waiting);
            return false;
        }
        return true;
    }

    /** Sends {@code [client, "", payload]}, a REQ envelope's reply. */
    private static void send(ZMQ.Socket socket, byte[] client, byte[] payload) {
        socket.send(client, ZMQ.SNDMORE);
        socket.send(EMPTY, ZMQ.SNDMORE);
        socket.send(payload, 0);
    }

    /** Tells every worker to end; does not wait. */
    private void stopWorkers() {
        pool.stop();
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public long inflightBytes() {
        return budget.used();
    }

    @Override
    public long refusedFrames() {
        return frameGuard.refusedFrames();
    }

    @Override
    public boolean isAlive() {
        return router.isAlive();
    }

    @Override
    public int workers() {
        return pool.size();
    }

    @Override
    public boolean isWorkerAlive(int index) {
        return pool.isAlive(index);
    }

    @Override
    public void restartWorker(int index) {
        pool.restart(index);
    }

    @Override
    public void resize(int workers) {
        pool.resize(workers);
    }

    @Override
    public boolean closed() {
        return !running;
    }

    @Override
    public List<Thread> stop() {
        running = false;
        List<Thread> threads = new ArrayList<>();
        threads.add(router);
        threads.addAll(pool.stop());
        return threads;
    }

    @Override
    public void close() {
        List<Thread> threads = stop();
        WorkerPool.joinWithin(threads, CLOSE_WAIT_MS);
    }

    /** A worker's step: takes the next waiting request when it is idle, answers it, and leaves the reply for the router. */
    private void serveNext(long timeoutMs) throws InterruptedException {
        ClientMessage message = handOff.take(timeoutMs);
        if (message != null) {
            // taken: its bytes are this worker's now, no longer held in the router's queue
            message.release();
            List<byte[]> frames = message.frames();
            // the reply may come later from another thread (a return's, after its commit): the hand-off takes it from any
            byte[] client = frames.get(0);
            WorkerPool.answer(handler, frames.get(2), reply -> handOff.reply(client, reply));
        }
    }
}
