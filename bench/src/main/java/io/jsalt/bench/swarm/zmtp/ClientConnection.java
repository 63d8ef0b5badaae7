package io.jsalt.bench.swarm.zmtp;

import io.jsalt.transport.zmq.ZmtpCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One outgoing ZMTP 3 connection on a {@link SelectorLoop}, in ZMTP's order: our greeting on connect, our READY
 * once the peer's greeting is in, our messages once the peer's READY is in (and names a socket type ours may talk
 * to). Touched on the loop thread only. Subclasses say what the socket is and what it does with messages.
 */
abstract class ClientConnection implements ZmtpReader.Sink {
    final SelectorLoop loop;
    private final InetSocketAddress address;
    private final String socketType;
    private final long maxFrameBytes;
    private SocketChannel channel;
    private SelectionKey key;
    private ZmtpReader reader;
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>(4);
    private boolean handshaken;

    ClientConnection(SelectorLoop loop, InetSocketAddress address, String socketType, long maxFrameBytes) {
        this.loop = loop;
        this.address = address;
        this.socketType = socketType;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** The peer's socket types this one may talk to (ZMTP 3's compatibility table). */
    abstract boolean peerFits(String peerType);

    /** The handshake is complete: messages may go. */
    abstract void handshaken() throws IOException;

    /** The connection is gone ({@code wasHandshaken}: after its handshake); {@code why} for a log line. */
    abstract void lost(boolean wasHandshaken, String why);

    boolean open() {
        return channel != null;
    }

    boolean isHandshaken() {
        return handshaken;
    }

    /** Starts a TCP connect; the greeting goes as soon as it completes. */
    void connect() throws IOException {
        channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            reader = new ZmtpReader(maxFrameBytes, this);
            handshaken = false;
            out.clear();
            if (channel.connect(address)) {
                key = channel.register(loop.selector(), SelectionKey.OP_READ, this);
                connected();
            } else {
                key = channel.register(loop.selector(), SelectionKey.OP_CONNECT, this);
            }
        } catch (IOException | RuntimeException e) {
            closeChannel();
            throw e;
        }
    }

    private void connected() throws IOException {
        send(ZmtpPeerBytes.greetingBuffer());
    }

    void onSelected(SelectionKey k) throws IOException {
        if (!k.isValid()) {
            return;
        }
        if (k.isConnectable()) {
            channel.finishConnect();
            k.interestOps(SelectionKey.OP_READ);
            connected();
            return;
        }
        if (k.isWritable()) {
            flush();
        }
        if (k.isValid() && k.isReadable()) {
            ByteBuffer buffer = loop.readBuffer;
            buffer.clear();
            int n = channel.read(buffer);
            if (n < 0) {
                drop("closed by the peer");
                return;
            }
            buffer.flip();
            reader.read(buffer);
        }
    }

    @Override
    public void greeted() throws IOException {
        send(ZmtpPeerBytes.ready(socketType));
    }

    @Override
    public void command(String name, byte[] data) throws IOException {
        if (channel == null) {
            return; // dropped while the rest of a read was decoded
        }
        if ("READY".equals(name) && !handshaken) {
            String peerType;
            try {
                peerType = ZmtpCodec.socketType(data);
            } catch (ZmtpCodec.ZmtpException e) {
                throw new ZmtpReader.ProtocolException(e.getMessage());
            }
            if (peerType == null || !peerFits(peerType)) {
                throw new ZmtpReader.ProtocolException("a peer of socket type " + peerType);
            }
            handshaken = true;
            handshaken();
        } else if ("PING".equals(name)) {
            send(ZmtpPeerBytes.pong(data));
        } else if ("ERROR".equals(name)) {
            throw new ZmtpReader.ProtocolException("the peer sent ERROR");
        }
    }

    @Override
    public void message(List<byte[]> frames) throws IOException {
        if (channel == null) {
            return;
        }
        if (!handshaken) {
            throw new ZmtpReader.ProtocolException("a message before READY");
        }
        received(frames);
    }

    /** A message from the peer after the handshake. */
    abstract void received(List<byte[]> frames) throws IOException;

    /** Writes {@code bytes} after whatever waits; what the socket does not take now goes when it is writable. */
    void send(ByteBuffer bytes) throws IOException {
        if (channel == null) {
            return;
        }
        out.add(bytes);
        flush();
    }

    private void flush() throws IOException {
        while (!out.isEmpty()) {
            ByteBuffer head = out.peek();
            channel.write(head);
            if (head.hasRemaining()) {
                key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
                return;
            }
            out.poll();
        }
        if (key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_WRITE) != 0) {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** Closes the connection and reports it lost (a no-op when it is not open). */
    void drop(String why) {
        if (channel == null) {
            return;
        }
        boolean was = handshaken;
        closeChannel();
        lost(was, why);
    }

    /** Closes the connection without reporting it (our own decision: idle, closed). */
    void closeChannel() {
        handshaken = false;
        out.clear();
        reader = null;
        if (key != null) {
            key.cancel();
            key = null;
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing
            }
            channel = null;
        }
    }
}
