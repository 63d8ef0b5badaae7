package io.jsalt.bench.swarm.zmtp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads what a ZMTP 3 peer (the master's publisher or request port) sends a client: its greeting, then commands
 * and multi-frame messages. A frame header declaring more than {@code maxFrameBytes} is a protocol error before
 * anything is allocated, as JeroMQ's {@code maxmsgsize} and the product's {@code FrameSizeGuard} make it.
 */
final class ZmtpReader {
    /** What the reader found; the connection acts on it. */
    interface Sink {
        void greeted() throws IOException;

        void command(String name, byte[] data) throws IOException;

        void message(List<byte[]> frames) throws IOException;
    }

    /** The peer broke the protocol, or sent a frame above the limit: the connection is dropped. */
    static final class ProtocolException extends IOException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }

    private static final int MAX_COMMAND_BYTES = 64 * 1024;
    private static final byte[] NULL_MECHANISM = Arrays.copyOf("NULL".getBytes(StandardCharsets.US_ASCII), 20);

    private final long maxFrameBytes;
    private final Sink sink;
    private byte[] greeting = new byte[ZmtpPeerBytes.GREETING_BYTES];
    private int greetingFill;
    private final byte[] header = new byte[9];
    private int headerFill;
    private boolean inBody;
    private int flags;
    private byte[] body;
    private int bodyFill;
    private final List<byte[]> frames = new ArrayList<>(2);

    ZmtpReader(long maxFrameBytes, Sink sink) {
        this.maxFrameBytes = maxFrameBytes;
        this.sink = sink;
    }

    void read(ByteBuffer in) throws IOException {
        while (in.hasRemaining()) {
            if (greeting != null) {
                readGreeting(in);
            } else if (inBody) {
                readBody(in);
            } else {
                readHeader(in);
            }
        }
    }

    private void readGreeting(ByteBuffer in) throws IOException {
        int n = Math.min(in.remaining(), greeting.length - greetingFill);
        in.get(greeting, greetingFill, n);
        greetingFill += n;
        if ((greeting[0] & 0xff) != 0xff || greetingFill > 9 && (greeting[9] & 1) == 0 || greetingFill > 10 && greeting[10] < 3) {
            throw new ProtocolException("the peer does not speak ZMTP 3");
        }
        if (greetingFill == greeting.length) {
            if (!Arrays.equals(greeting, 12, 32, NULL_MECHANISM, 0, 20)) {
                throw new ProtocolException("the peer asks for a security mechanism other than NULL");
            }
            greeting = null;
            sink.greeted();
        }
    }

    private void readHeader(ByteBuffer in) throws IOException {
        if (headerFill == 0) {
            header[headerFill++] = in.get();
            if ((header[0] & 0xf8) != 0) {
                throw new ProtocolException("a frame with reserved flag bits set");
            }
            return;
        }
        int need = 1 + ((header[0] & ZmtpPeerBytes.LONG) != 0 ? 8 : 1);
        int n = Math.min(in.remaining(), need - headerFill);
        in.get(header, headerFill, n);
        headerFill += n;
        if (headerFill < need) {
            return;
        }
        long size = need == 2 ? header[1] & 0xff : ByteBuffer.wrap(header, 1, 8).getLong();
        headerFill = 0;
        flags = header[0] & 0xff;
        boolean command = (flags & ZmtpPeerBytes.COMMAND) != 0;
        if (size < 0 || size > (command ? MAX_COMMAND_BYTES : maxFrameBytes)) {
            throw new ProtocolException("a " + size + "-byte " + (command ? "command" : "frame") + ", above the limit");
        }
        if (command && !frames.isEmpty()) {
            throw new ProtocolException("a command inside a multi-frame message");
        }
        body = new byte[(int) size];
        bodyFill = 0;
        inBody = true;
        if (size == 0) {
            endFrame();
        }
    }

    private void readBody(ByteBuffer in) throws IOException {
        int n = Math.min(in.remaining(), body.length - bodyFill);
        in.get(body, bodyFill, n);
        bodyFill += n;
        if (bodyFill == body.length) {
            endFrame();
        }
    }

    private void endFrame() throws IOException {
        inBody = false;
        byte[] frame = body;
        body = null;
        if ((flags & ZmtpPeerBytes.COMMAND) != 0) {
            if (frame.length < 1 || frame.length < 1 + (frame[0] & 0xff)) {
                throw new ProtocolException("a command with a truncated name");
            }
            int nameLength = frame[0] & 0xff;
            sink.command(new String(frame, 1, nameLength, StandardCharsets.US_ASCII), Arrays.copyOfRange(frame, 1 + nameLength, frame.length));
            return;
        }
        frames.add(frame);
        if ((flags & ZmtpPeerBytes.MORE) == 0) {
            List<byte[]> message = List.copyOf(frames);
            frames.clear();
            sink.message(message);
        }
    }
}
