package io.jsalt.transport.zmq;

import io.jsalt.transport.RequestLimits;
import io.jsalt.transport.zmq.ZmtpCodec.ZmtpException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * One client connection of the native request server, as a ZMTP 3 server with the NULL mechanism sees it:
 * the peer's greeting and READY, then REQ envelopes {@code [""(MORE), payload]}, PINGs, and the replies
 * waiting to go out. Only the selector thread touches it. The decoder holds no more of a frame than its
 * header declares: a frame above {@code maxRequestBytes} is a protocol error before anything is allocated,
 * and one above {@link RequestLimits#UNBUDGETED_FRAME_BYTES} is charged to the shared budget from its header
 * (refused: its body is read and thrown away, and its request dropped).
 */
final class ZmtpConnection {
    /** What the decoder found, for the server to act on. */
    interface Listener {
        /** A whole REQ envelope; {@code chargedBytes} of the budget stay held until a worker takes it. */
        void request(ZmtpConnection from, byte[] payload, long chargedBytes);

        /** A message that is not served: malformed ({@code refused} false) or short of budget. */
        void dropped(ZmtpConnection from, String why, boolean refused);

        /** A frame of {@code size} bytes refused: above max_request_size or negative (the connection then closes), or short of budget. */
        void frameRefused(long size, boolean overLimit);
    }

    private enum Phase { GREETING, HANDSHAKE, OPEN }

    private static final int MAX_COMMAND_BYTES = RequestLimits.UNBUDGETED_FRAME_BYTES;

    final SocketChannel channel;
    private final long maxFrameBytes;
    private final InflightBudget budget;
    private final Listener listener;
    private final long handshakeDeadline;
    private Phase phase = Phase.GREETING;
    private byte[] greeting = new byte[ZmtpCodec.GREETING_BYTES];
    private int greetingFill;
    // the frame being read: its header (flags and 1 or 8 size bytes), then its body
    private final byte[] header = new byte[9];
    private int headerFill;
    private boolean inBody;
    private int flags;
    private long bodyLeft;
    private byte[] body; // null while a refused or unwanted body is skipped
    private int bodyFill;
    private long frameCharged;
    // the message being assembled: only its second frame is kept
    private int frames;
    private boolean malformed;
    private boolean refused;
    private byte[] payload;
    private long messageCharged;
    // replies and commands waiting to be written
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>(2);
    private long pendingBytes;
    private boolean closeAfterFlush;
    private boolean closed;

    ZmtpConnection(SocketChannel channel, long maxFrameBytes, InflightBudget budget, Listener listener, long handshakeDeadline) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.budget = budget;
        this.listener = listener;
        this.handshakeDeadline = handshakeDeadline;
        queue(ZmtpCodec.greeting());
    }

    long handshakeDeadline() {
        return handshakeDeadline;
    }

    boolean handshaken() {
        return phase == Phase.OPEN;
    }

    /** Decodes everything in {@code in}; a protocol violation ends the connection (the server closes it). */
    void decode(ByteBuffer in) throws ZmtpException {
        while (in.hasRemaining() && !closeAfterFlush && !closed) {
            if (phase == Phase.GREETING) {
                readGreeting(in);
            } else if (inBody) {
                readBody(in);
            } else {
                readHeader(in);
            }
        }
    }

    private void readGreeting(ByteBuffer in) throws ZmtpException {
        int n = Math.min(in.remaining(), greeting.length - greetingFill);
        in.get(greeting, greetingFill, n);
        greetingFill += n;
        ZmtpCodec.checkGreeting(greeting, greetingFill);
        if (greetingFill == greeting.length) {
            greeting = null;
            phase = Phase.HANDSHAKE;
            queue(ZmtpCodec.ready("ROUTER"));
        }
    }

    private void readHeader(ByteBuffer in) throws ZmtpException {
        if (headerFill == 0) {
            header[headerFill++] = in.get();
            if ((header[0] & ZmtpCodec.RESERVED) != 0) {
                throw new ZmtpException("a frame with reserved flag bits set");
            }
            return;
        }
        int need = 1 + ((header[0] & ZmtpCodec.LONG) != 0 ? 8 : 1);
        int n = Math.min(in.remaining(), need - headerFill);
        in.get(header, headerFill, n);
        headerFill += n;
        if (headerFill == need) {
            long size = need == 2 ? header[1] & 0xff : ByteBuffer.wrap(header, 1, 8).getLong();
            headerFill = 0;
            startFrame(header[0] & 0xff, size);
        }
    }

    private void startFrame(int frameFlags, long size) throws ZmtpException {
        boolean command = (frameFlags & ZmtpCodec.COMMAND) != 0;
        if (size < 0) {
            // a size with the top bit set: a known scanner probe, and JeroMQ 0.6.0's killer
            listener.frameRefused(size, true);
            throw new ZmtpException("a ZMTP frame with a negative size", true);
        }
        if (size > maxFrameBytes) {
            listener.frameRefused(size, true);
            throw new ZmtpException("a " + size + "-byte frame, above the " + maxFrameBytes + "-byte limit (max_request_size)", true);
        }
        if (command && ((frameFlags & ZmtpCodec.MORE) != 0 || frames > 0)) {
            throw new ZmtpException("a command inside a multi-frame message");
        }
        if (command && size > MAX_COMMAND_BYTES) {
            throw new ZmtpException("a " + size + "-byte command");
        }
        if (!command && phase != Phase.OPEN) {
            throw new ZmtpException("a message before the READY command");
        }
        flags = frameFlags;
        bodyLeft = size;
        bodyFill = 0;
        body = null;
        frameCharged = 0;
        if (command) {
            body = new byte[(int) size];
        } else {
            frames++;
            boolean delimiter = frames == 1;
            if (frames > 2 || delimiter && size != 0) {
                malformed = true;
            } else if (!delimiter && !malformed && !refused) {
                reserveBody(size);
            }
        }
        inBody = true;
        if (size == 0) {
            endFrame();
        }
    }

    /** Allocates the payload frame, charging it to the budget when it is large; refused: it is skipped. */
    private void reserveBody(long size) {
        if (size > RequestLimits.UNBUDGETED_FRAME_BYTES) {
            if (!budget.tryReserve(size)) {
                refused = true;
                listener.frameRefused(size, false);
                return;
            }
            frameCharged = size;
        }
        body = new byte[(int) size];
    }

    private void readBody(ByteBuffer in) throws ZmtpException {
        int n = (int) Math.min(in.remaining(), bodyLeft);
        if (body != null) {
            in.get(body, bodyFill, n);
            bodyFill += n;
        } else {
            in.position(in.position() + n);
        }
        bodyLeft -= n;
        if (bodyLeft == 0) {
            endFrame();
        }
    }

    private void endFrame() throws ZmtpException {
        inBody = false;
        byte[] frame = body;
        body = null;
        if ((flags & ZmtpCodec.COMMAND) != 0) {
            command(frame);
            return;
        }
        messageCharged += frameCharged;
        frameCharged = 0;
        if (frames == 2 && frame != null) {
            payload = frame;
        }
        if ((flags & ZmtpCodec.MORE) == 0) {
            endMessage();
        }
    }

    private void endMessage() {
        long charged = messageCharged;
        byte[] served = payload;
        int count = frames;
        boolean wasRefused = refused;
        boolean wasMalformed = malformed || count != 2;
        frames = 0;
        malformed = false;
        refused = false;
        payload = null;
        messageCharged = 0;
        if (wasMalformed || wasRefused) {
            budget.release(charged);
            listener.dropped(this, wasMalformed ? count + " frames, not a REQ envelope"
                    : "a frame of it did not fit max_inflight_request_bytes", !wasMalformed);
            return;
        }
        listener.request(this, served, charged);
    }

    private void command(byte[] frame) throws ZmtpException {
        String name = ZmtpCodec.commandName(frame);
        if (phase == Phase.HANDSHAKE) {
            if (!"READY".equals(name)) {
                throw new ZmtpException("a " + ZmtpCodec.printable(name.getBytes()) + " command instead of READY");
            }
            String socketType = ZmtpCodec.socketType(ZmtpCodec.commandData(frame));
            if (!"REQ".equals(socketType) && !"DEALER".equals(socketType)) {
                // the peer learns why before the connection closes, as ZMTP 3.1 lets a peer say
                queue(ZmtpCodec.error("invalid socket type"));
                closeAfterFlush = true;
                throw new ZmtpException("a peer of socket type " + (socketType == null ? "(none)"
                        : ZmtpCodec.printable(socketType.getBytes())) + " (a ROUTER serves REQ and DEALER)");
            }
            phase = Phase.OPEN;
        } else if ("PING".equals(name)) {
            queue(ZmtpCodec.pong(ZmtpCodec.commandData(frame)));
        }
        // PONG, and commands a later ZMTP may add, need no answer
    }

    /** Leaves {@code bytes} to be written after what is already waiting. */
    void queue(ByteBuffer bytes) {
        out.add(bytes);
        pendingBytes += bytes.remaining();
    }

    /** Bytes waiting to be written. */
    long pendingBytes() {
        return pendingBytes;
    }

    /** Whether the connection ends once its queue is written (an ERROR is on its way). */
    boolean closingAfterFlush() {
        return closeAfterFlush;
    }

    /** Writes what the socket takes now; true when nothing is left waiting. */
    boolean flush() throws IOException {
        while (!out.isEmpty()) {
            ByteBuffer head = out.peek();
            int written = channel.write(head);
            pendingBytes -= written;
            if (head.hasRemaining()) {
                return false;
            }
            out.poll();
        }
        return true;
    }

    boolean closed() {
        return closed;
    }

    /** Closes the socket and gives back the budget of whatever was half-read; false (doing nothing) when already closed. */
    boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        budget.release(frameCharged + messageCharged);
        frameCharged = 0;
        messageCharged = 0;
        body = null;
        payload = null;
        out.clear();
        pendingBytes = 0;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing more to do about it
        }
        return true;
    }
}
