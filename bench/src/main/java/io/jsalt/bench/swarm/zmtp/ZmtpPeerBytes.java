package io.jsalt.bench.swarm.zmtp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a JeroMQ 0.6.0 SUB or REQ socket sends on a fresh connection, byte for byte (taken from a JeroMQ
 * socket connected to a plain TCP listener; {@code ZmtpPeerBytesTest} compares them again): the ZMTP 3.0 greeting
 * with the NULL mechanism, the READY command, a subscription as a message frame {@code 0x01 + topic}, a request as
 * the REQ envelope {@code [""(MORE), payload]}. The master cannot tell this swarm's connections from JeroMQ's.
 */
final class ZmtpPeerBytes {
    static final int GREETING_BYTES = 64;
    static final int MORE = 0x01;
    static final int LONG = 0x02;
    static final int COMMAND = 0x04;
    private static final byte[] GREETING = greeting();

    private ZmtpPeerBytes() {}

    private static byte[] greeting() {
        byte[] g = new byte[GREETING_BYTES];
        g[0] = (byte) 0xff;
        g[8] = 0x01; // JeroMQ's padding ends with 1: a ZMTP 1.0 peer reads an empty identity there
        g[9] = 0x7f;
        g[10] = 3; // version 3.0, as JeroMQ 0.6.0 sends
        g[11] = 0;
        byte[] mechanism = "NULL".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(mechanism, 0, g, 12, mechanism.length);
        return g;
    }

    static ByteBuffer greetingBuffer() {
        return ByteBuffer.wrap(GREETING.clone());
    }

    /** READY with Socket-Type, and for a REQ (as JeroMQ does for REQ, DEALER and ROUTER) an empty Identity. */
    static ByteBuffer ready(String socketType) {
        byte[] type = socketType.getBytes(StandardCharsets.US_ASCII);
        boolean identity = "REQ".equals(socketType);
        ByteBuffer body = ByteBuffer.allocate(6 + property("Socket-Type", type.length) + (identity ? property("Identity", 0) : 0));
        body.put((byte) 5).put("READY".getBytes(StandardCharsets.US_ASCII));
        putProperty(body, "Socket-Type", type);
        if (identity) {
            putProperty(body, "Identity", new byte[0]);
        }
        return command(body.array());
    }

    private static int property(String name, int valueLength) {
        return 1 + name.length() + 4 + valueLength;
    }

    private static void putProperty(ByteBuffer body, String name, byte[] value) {
        body.put((byte) name.length()).put(name.getBytes(StandardCharsets.US_ASCII)).putInt(value.length).put(value);
    }

    /** The PONG a JeroMQ peer answers a PING with: the PING's context (after its 2-byte TTL) echoed. */
    static ByteBuffer pong(byte[] pingData) {
        int contextLength = Math.max(0, Math.min(16, pingData.length - 2));
        byte[] body = new byte[5 + contextLength];
        body[0] = 4;
        System.arraycopy("PONG".getBytes(StandardCharsets.US_ASCII), 0, body, 1, 4);
        System.arraycopy(pingData, 2, body, 5, contextLength);
        return command(body);
    }

    private static ByteBuffer command(byte[] body) {
        ByteBuffer framed = ByteBuffer.allocate(frameHeaderBytes(body.length) + body.length);
        putHeader(framed, COMMAND, body.length);
        framed.put(body).flip();
        return framed;
    }

    /** A subscription to {@code topic}: what a ZMTP 3.0 SUB sends (a message whose first byte is 1). */
    static ByteBuffer subscribe(byte[] topic) {
        ByteBuffer out = ByteBuffer.allocate(frameHeaderBytes(topic.length + 1) + topic.length + 1);
        putHeader(out, 0, topic.length + 1);
        out.put((byte) 1).put(topic).flip();
        return out;
    }

    /** A REQ's request: the empty delimiter frame, then {@code payload} as the last frame. */
    static ByteBuffer request(byte[] payload) {
        ByteBuffer out = ByteBuffer.allocate(2 + frameHeaderBytes(payload.length) + payload.length);
        out.put((byte) MORE).put((byte) 0);
        putHeader(out, 0, payload.length);
        out.put(payload).flip();
        return out;
    }

    private static int frameHeaderBytes(int size) {
        return size <= 255 ? 2 : 9;
    }

    private static void putHeader(ByteBuffer out, int flags, int size) {
        if (size <= 255) {
            out.put((byte) flags).put((byte) size);
        } else {
            out.put((byte) (flags | LONG)).putLong(size);
        }
    }
}
