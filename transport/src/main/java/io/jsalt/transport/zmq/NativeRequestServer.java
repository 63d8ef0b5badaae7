package io.jsalt.transport.zmq;

import io.jsalt.transport.HealthProbe;
import io.jsalt.transport.RequestHandler;
import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request port served without JeroMQ: one thread owns an NIO selector (epoll on Linux) and does all the
 * I/O (accepting, the ZMTP 3 handshake with the NULL mechanism as a ROUTER, reading REQ envelopes, writing
 * replies), and hands whole requests to the MWorker pool through Java queues, as {@link ZmqRequestServer}
 * does. Where JeroMQ needs an I/O thread, a router thread and a poll of both per message, this needs one
 * select, one read and one write; and a connection's interest changes cost the selector nothing like
 * JeroMQ's walk of every connection. Every guarantee of {@link ZmqRequestServer} holds: the same
 * {@link RequestLimits} (frame size checked at the header, large frames charged to the shared budget from
 * their header until a worker takes them), the same queue bound, malformed envelopes dropped, a
 * {@link HealthProbe} answered by this thread even when every worker is busy. A client that does not read
 * its replies is dropped once {@link #MAX_PENDING_BYTES} wait for it, and a connection that has not finished
 * its handshake within {@link #HANDSHAKE_MS} is closed, as JeroMQ's handshake interval does.
 */
final class NativeRequestServer implements OwnedRequestServer, ZmtpConnection.Listener {
    private static final Logger log = LoggerFactory.getLogger(NativeRequestServer.class);
    private static final long CLOSE_WAIT_MS = 2000;
    /** Requests waiting for a worker; beyond this the newest is dropped and its client retries, as on a timeout. */
    static final int MAX_QUEUED = 100_000;
    /** Replies waiting to be written to one connection before it is dropped for not reading them. */
    static final long MAX_PENDING_BYTES = 8L * 1024 * 1024;
    /** JeroMQ's default handshake interval (ZMQ_HANDSHAKE_IVL) for a bound socket. */
    static final long HANDSHAKE_MS = 30_000;
    /** How long a select may sleep when no handshake deadline is nearer. */
    private static final long SELECT_MS = 1000;
    /** Reads from one connection in one pass, so that one busy client does not starve the others. */
    private static final int READS_PER_PASS = 4;

    private final RequestHandler handler;
    private final long maxFrameBytes;
    private final InflightBudget budget;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final SelectorHandOff handOff;
    private final WorkerPool pool;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    /** Connections still in their handshake, oldest first (their deadlines are in accept order). */
    private final ArrayDeque<ZmtpConnection> handshaking = new ArrayDeque<>();
    private final AtomicLong refusedFrames = new AtomicLong();
    /** Each kind of peer misbehaviour is logged at most once per ten seconds, and one kind cannot hide another. */
    private final WarnLimiter connectionWarnings = new WarnLimiter(log);
    private final WarnLimiter limitWarnings = new WarnLimiter(log);
    private final WarnLimiter budgetWarnings = new WarnLimiter(log);
    private final WarnLimiter requestWarnings = new WarnLimiter(log);
    private final String endpoint;
    private final long handshakeMs;
    /** Open client connections, for tests and health. */
    private final AtomicInteger connections = new AtomicInteger();
    private final int port;
    private final Thread thread;
    private volatile boolean running = true;

    private NativeRequestServer(String host, int requestedPort, RequestHandler handler, RequestLimits limits, long handshakeMs) {
        this.handler = handler;
        this.handshakeMs = handshakeMs;
        this.maxFrameBytes = limits.maxRequestBytes();
        this.budget = new InflightBudget(limits.maxInflightBytes());
        this.endpoint = Endpoints.tcp(host, requestedPort);
        Selector s = null;
        ServerSocketChannel l = null;
        try {
            s = Selector.open();
            l = ServerSocketChannel.open();
            l.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            InetSocketAddress address = "*".equals(host) || "0.0.0.0".equals(host)
                    ? new InetSocketAddress(requestedPort) : new InetSocketAddress(host, requestedPort);
            if (address.isUnresolved()) {
                throw new IOException("unknown host " + host);
            }
            l.bind(address, Endpoints.BACKLOG);
            l.configureBlocking(false);
            l.register(s, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            closeQuietly(l);
            closeQuietly(s);
            throw new TransportException("cannot bind " + endpoint + ": " + e.getMessage(), e);
        }
        this.selector = s;
        this.listener = l;
        this.port = l.socket().getLocalPort();
        this.handOff = new SelectorHandOff(selector, budget);
        this.pool = new WorkerPool(this::serveNext, () -> running);
        this.thread = new Thread(this::loop, "jsalt-req-selector-" + port);
        thread.setDaemon(true);
    }

    static NativeRequestServer start(String host, int port, int workers, RequestHandler handler, RequestLimits limits) {
        return start(host, port, workers, handler, limits, HANDSHAKE_MS);
    }

    /** With a handshake deadline of {@code handshakeMs} instead of JeroMQ's 30 s (tests). */
    static NativeRequestServer start(String host, int port, int workers, RequestHandler handler, RequestLimits limits,
            long handshakeMs) {
        NativeRequestServer server = new NativeRequestServer(host, port, handler, limits, handshakeMs);
        server.thread.start();
        server.resize(workers);
        return server;
    }

    private void loop() {
        try {
            while (running) {
                boolean sent = sendReplies();
                handOff.selectorSleeping(true);
                try {
                    if (sent || handOff.hasReplies()) {
                        selector.selectNow(); // a worker answered before it could see this thread asleep
                    } else {
                        selector.select(selectTimeout());
                    }
                } finally {
                    handOff.selectorSleeping(false);
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
                expireHandshakes();
            }
        } catch (IOException | RuntimeException e) {
            if (running) {
                log.error("request server on port {} stopped: {}", port, e.toString());
            }
        } finally {
            pool.stop();
            handOff.close();
            for (SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof ZmtpConnection c && c.close()) {
                    connections.decrementAndGet();
                }
            }
            closeQuietly(listener);
            closeQuietly(selector);
        }
    }

    private void handle(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            acceptAll();
            return;
        }
        ZmtpConnection c = (ZmtpConnection) key.attachment();
        try {
            if (key.isWritable() && c.flush() && c.closingAfterFlush()) {
                close(c);
                return;
            }
            if (key.isReadable() && !c.closingAfterFlush()) {
                read(c);
                if (!c.closed() && c.pendingBytes() > 0) {
                    c.flush(); // a READY, PONG or probe answer the read left: at once, not after another select
                }
            }
        } catch (IOException e) {
            close(c); // the peer went away
            return;
        }
        updateInterest(c);
    }

    private void acceptAll() {
        while (true) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                connectionWarnings.warn("accept failed on {}: {}", endpoint, e.toString());
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ZmtpConnection c = new ZmtpConnection(channel, maxFrameBytes, budget, this,
                        System.nanoTime() + handshakeMs * 1_000_000);
                channel.register(selector, SelectionKey.OP_READ, c);
                connections.incrementAndGet();
                handshaking.add(c);
                c.flush(); // the greeting goes out at once: a libzmq peer waits for it before it sends the rest of its own
                updateInterest(c);
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    private void read(ZmtpConnection c) throws IOException {
        for (int i = 0; i < READS_PER_PASS && !c.closed(); i++) {
            readBuffer.clear();
            int n = c.channel.read(readBuffer);
            if (n < 0) {
                close(c);
                return;
            }
            readBuffer.flip();
            try {
                c.decode(readBuffer);
            } catch (ZmtpCodec.ZmtpException e) {
                if (!e.logged) {
                    connectionWarnings.warn("refused {} on {}; connection closed", e.getMessage(), endpoint);
                }
                if (c.closingAfterFlush()) {
                    c.flush(); // its ERROR, which says why
                }
                close(c);
                return;
            }
            if (readBuffer.limit() < readBuffer.capacity()) {
                return; // the socket had no more for now
            }
        }
    }

    private void updateInterest(ZmtpConnection c) {
        SelectionKey key = c.channel.keyFor(selector);
        if (c.closed() || key == null || !key.isValid()) {
            return;
        }
        int ops = (c.closingAfterFlush() ? 0 : SelectionKey.OP_READ) | (c.pendingBytes() > 0 ? SelectionKey.OP_WRITE : 0);
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Queues {@code bytes} for {@code c} and writes what the socket takes now; OP_WRITE only while some wait. */
    private void send(ZmtpConnection c, ByteBuffer bytes) {
        if (c.closed()) {
            return;
        }
        if (c.pendingBytes() > MAX_PENDING_BYTES) {
            connectionWarnings.warn("closed a connection to {}: {} bytes of replies wait for a client that does not read them",
                    endpoint, c.pendingBytes());
            close(c);
            return;
        }
        boolean wasIdle = c.pendingBytes() == 0;
        c.queue(bytes);
        if (wasIdle) {
            try {
                c.flush();
            } catch (IOException e) {
                close(c);
                return;
            }
        }
        updateInterest(c);
    }

    private boolean sendReplies() {
        boolean any = false;
        for (SelectorHandOff.Reply r = handOff.nextReply(); r != null; r = handOff.nextReply()) {
            send(r.to(), ZmtpCodec.reply(r.payload()));
            any = true;
        }
        return any;
    }

    private long selectTimeout() {
        ZmtpConnection oldest = handshaking.peek();
        if (oldest == null) {
            return SELECT_MS;
        }
        long ms = (oldest.handshakeDeadline() - System.nanoTime()) / 1_000_000 + 1;
        return Math.max(1, Math.min(SELECT_MS, ms));
    }

    private void expireHandshakes() {
        long now = System.nanoTime();
        while (!handshaking.isEmpty()) {
            ZmtpConnection oldest = handshaking.peek();
            if (oldest.closed() || oldest.handshaken()) {
                handshaking.poll();
            } else if (now - oldest.handshakeDeadline() >= 0) {
                handshaking.poll();
                connectionWarnings.warn("closed a connection to {}: no ZMTP handshake within {} ms", endpoint, handshakeMs);
                close(oldest);
            } else {
                return;
            }
        }
    }

    private void close(ZmtpConnection c) {
        SelectionKey key = c.channel.keyFor(selector);
        if (key != null) {
            key.cancel();
        }
        if (c.close()) {
            connections.decrementAndGet();
        }
    }

    @Override
    public void request(ZmtpConnection from, byte[] payload, long chargedBytes) {
        if (HealthProbe.isProbe(payload)) {
            budget.release(chargedBytes);
            send(from, ZmtpCodec.reply(HealthProbe.answer()));
            return;
        }
        int waiting = handOff.waiting();
        if (waiting >= MAX_QUEUED) {
            budget.release(chargedBytes);
            requestWarnings.warn("dropped a request on {}: {} requests already wait for a worker", endpoint, waiting);
            return;
        }
        handOff.request(new SelectorHandOff.Request(from, payload, chargedBytes));
    }

    @Override
    public void dropped(ZmtpConnection from, String why, boolean refused) {
        if (refused) {
            log.debug("dropped a request on {}: {}", endpoint, why);
        } else {
            requestWarnings.warn("dropped a malformed request on {}: {}", endpoint, why);
        }
    }

    @Override
    public void frameRefused(long size, boolean overLimit) {
        long count = refusedFrames.incrementAndGet();
        if (size < 0) {
            limitWarnings.warn("refused a ZMTP frame with a negative size on {}; connection closed", endpoint);
        } else if (overLimit) {
            limitWarnings.warn("refused a {}-byte frame on {}: above the {}-byte limit (max_request_size); connection closed",
                    size, endpoint, maxFrameBytes);
        } else {
            budgetWarnings.warn("refused a {}-byte frame on {}: connections already hold {} of the {} bytes allowed in frames"
                    + " still arriving (max_inflight_request_bytes); {} refused so far", size, endpoint, budget.used(),
                    budget.capacity(), count);
        }
    }

    /** A worker's step: the next request, answered, its reply left for the selector thread (now or when the handler has it). */
    private void serveNext(long timeoutMs) throws InterruptedException {
        SelectorHandOff.Request r = handOff.take(timeoutMs);
        if (r != null) {
            // the reply may come later from another thread (a return's, after its commit): the hand-off takes it from any
            ZmtpConnection from = r.from();
            WorkerPool.answer(handler, r.payload(), reply -> handOff.reply(from, reply));
        }
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
        return refusedFrames.get();
    }

    /** Client connections open now. */
    int connections() {
        return connections.get();
    }

    /** Wake-ups of the selector by workers so far (each a system call). */
    long wakeUps() {
        return handOff.wakeUps();
    }

    @Override
    public boolean isAlive() {
        return thread.isAlive();
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
        selector.wakeup();
        List<Thread> threads = new ArrayList<>();
        threads.add(thread);
        threads.addAll(pool.stop());
        return threads;
    }

    @Override
    public void close() {
        WorkerPool.joinWithin(stop(), CLOSE_WAIT_MS);
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing: nothing more to do about it
            }
        }
    }
}
