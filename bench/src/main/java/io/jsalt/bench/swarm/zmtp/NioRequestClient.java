package io.jsalt.bench.swarm.zmtp;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One minion's request channel, as the product's {@code ZmqRequestClient} behaves: its own ZMTP 3 REQ connection,
 * opened by the first request, one request in flight (a lock), a timeout that drops the connection (a REQ that
 * missed its reply is stuck), and with {@link #closeWhenIdle} the connection closed once unused that long. The
 * caller's thread waits; the connection lives on the loop thread.
 */
final class NioRequestClient extends ClientConnection implements RequestClient {
    private final String endpoint;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long idleCloseMs = -1;
    private volatile boolean closed;
    // loop thread only
    private CompletableFuture<byte[]> pending;
    /** The request not yet written (the connection is still in its handshake); null once sent. */
    private ByteBuffer unsent;
    private long uses;
    private long reconnectMs = NioSubscription.RECONNECT_MIN_MS;

    NioRequestClient(SelectorLoop loop, InetSocketAddress address, long maxReplyBytes) {
        super(loop, address, "REQ", maxReplyBytes);
        this.endpoint = "tcp://" + address.getHostString() + ":" + address.getPort();
    }

    @Override
    boolean peerFits(String peerType) {
        return "ROUTER".equals(peerType) || "REP".equals(peerType);
    }

    @Override
    public byte[] request(byte[] payload, Duration timeout) {
        lock.lock();
        try {
            if (closed || loop.closing()) {
                throw new TransportException("request client to " + endpoint + " is closed");
            }
            CompletableFuture<byte[]> reply = new CompletableFuture<>();
            ByteBuffer envelope = ZmtpPeerBytes.request(payload);
            loop.execute(() -> begin(reply, envelope));
            try {
                return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                loop.execute(() -> abandon(reply));
                throw new RequestTimeoutException("no answer from " + endpoint + " within " + timeout.toMillis() + " ms");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof TransportException t ? t : new TransportException(e.getCause().toString(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                loop.execute(() -> abandon(reply));
                throw new TransportException("request to " + endpoint + " interrupted", e);
            }
        } finally {
            lock.unlock();
        }
    }

    private void begin(CompletableFuture<byte[]> reply, ByteBuffer envelope) {
        if (closed || loop.closing()) {
            reply.completeExceptionally(new TransportException("request client to " + endpoint + " is closed"));
            return;
        }
        pending = reply;
        unsent = envelope;
        uses++;
        if (isHandshaken()) {
            sendUnsent();
        } else if (!open()) {
            openNow();
        }
    }

    private void openNow() {
        if (closed || open() || pending == null) {
            return;
        }
        try {
            connect();
        } catch (IOException e) {
            lost(false, e.toString());
        }
    }

    @Override
    void handshaken() {
        reconnectMs = NioSubscription.RECONNECT_MIN_MS;
        if (unsent != null) {
            sendUnsent();
        }
    }

    private void sendUnsent() {
        ByteBuffer envelope = unsent;
        unsent = null;
        try {
            send(envelope);
        } catch (IOException e) {
            drop(e.toString());
        }
    }

    @Override
    void received(List<byte[]> frames) {
        // a REQ takes a reply only after its delimiter, and only while a request waits (else JeroMQ drops it)
        if (pending == null || frames.size() < 2 || frames.get(0).length != 0) {
            return;
        }
        CompletableFuture<byte[]> reply = pending;
        pending = null;
        reply.complete(frames.get(frames.size() - 1));
        scheduleIdleClose();
    }

    private void scheduleIdleClose() {
        long idle = idleCloseMs;
        if (idle < 0) {
            return;
        }
        if (idle == 0) {
            closeChannel();
            return;
        }
        long at = uses;
        loop.schedule(idle, () -> {
            if (uses == at && pending == null) {
                closeChannel();
            }
        });
    }

    /** The caller gave up on {@code reply}: its connection goes, as a REQ socket that missed its reply must. */
    private void abandon(CompletableFuture<byte[]> reply) {
        if (pending == reply) {
            pending = null;
            unsent = null;
            closeChannel();
        }
    }

    @Override
    void lost(boolean wasHandshaken, String why) {
        if (closed || loop.closing()) {
            failPending("the request client to " + endpoint + " is closed");
        } else if (pending != null && unsent != null) {
            // not sent yet: connect again, as a JeroMQ REQ does; the caller's timeout bounds it
            loop.schedule(reconnectMs, this::openNow);
            reconnectMs = Math.min(NioSubscription.RECONNECT_MAX_MS, reconnectMs * 2);
        }
        // sent and lost: the reply cannot come; the caller's timeout ends the wait, as with JeroMQ
    }

    private void failPending(String why) {
        if (pending != null) {
            pending.completeExceptionally(new TransportException(why));
            pending = null;
            unsent = null;
        }
    }

    @Override
    public void closeWhenIdle(Duration idle) {
        idleCloseMs = Math.max(0, idle.toMillis());
    }

    @Override
    public void close() {
        closed = true;
        loop.execute(() -> {
            failPending("the request client to " + endpoint + " is closed");
            closeChannel();
        });
    }
}
