package io.jsalt.transport.zmq;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of ZMTP 3.1 (rfc.zeromq.org/spec/37) that a NULL-mechanism server reads and writes: the 64-byte
 * greeting, the READY, ERROR, PING and PONG commands, and frame headers. Everything here is a pure
 * function of its arguments; a violation of the protocol is a {@link ZmtpException}. Public for the READY
 * command's properties only ({@link #socketType}), which the bench's own ZMTP client reads too.
 */
public final class ZmtpCodec {
    static final int GREETING_BYTES = 64;
    /** Flag bits of a frame header. */
    static final int MORE = 0x01;
    static final int LONG = 0x02;
    static final int COMMAND = 0x04;
    /** Flag bits ZMTP 3 leaves reserved: a peer that sets one is not speaking ZMTP 3. */
    static final int RESERVED = 0xF8;
    private static final int MECHANISM_OFFSET = 12;
    private static final int MECHANISM_BYTES = 20;
    private static final byte[] NULL_MECHANISM = Arrays.copyOf("NULL".getBytes(StandardCharsets.US_ASCII), MECHANISM_BYTES);
    private static final byte[] GREETING = greetingBytes();
    /** The delimiter of a REQ envelope: an empty frame with MORE set. */
    private static final byte[] DELIMITER = {MORE, 0};

    private ZmtpCodec() {}

    private static byte[] greetingBytes() {
        byte[] g = new byte[GREETING_BYTES];
        g[0] = (byte) 0xff; // signature: 0xff, 8 bytes of padding, 0x7f
        g[9] = 0x7f;
        g[10] = 3; // version 3.1: a 3.0 peer reads it as 3.0 and never sends PING
        g[11] = 1;
        System.arraycopy(NULL_MECHANISM, 0, g, MECHANISM_OFFSET, MECHANISM_BYTES);
        // as-server and the filler stay zero: NULL has no client and server roles
        return g;
    }

    /** Our whole greeting, sent as soon as a connection is accepted (a libzmq peer waits for its first 10 bytes). */
    static ByteBuffer greeting() {
        return ByteBuffer.wrap(GREETING.clone());
    }

    /**
     * Checks as much of a peer's greeting as has arrived ({@code filled} bytes of {@code g}), so that a peer
     * that is not ZMTP 3 with NULL is dropped as soon as it shows it.
     */
    static void checkGreeting(byte[] g, int filled) throws ZmtpException {
        if (filled >= 1 && (g[0] & 0xff) != 0xff) {
            throw new ZmtpException("a greeting that is not ZMTP");
        }
        if (filled >= 10 && (g[9] & 0x01) == 0) {
            throw new ZmtpException("a ZMTP 1.0 greeting (3 or later is served)");
        }
        if (filled >= 11 && g[10] < 3) {
            throw new ZmtpException("a greeting of ZMTP version " + g[10] + " (3 or later is served)");
        }
        if (filled >= MECHANISM_OFFSET + MECHANISM_BYTES
                && !Arrays.equals(g, MECHANISM_OFFSET, MECHANISM_OFFSET + MECHANISM_BYTES, NULL_MECHANISM, 0, MECHANISM_BYTES)) {
            throw new ZmtpException("a greeting asking for the security mechanism " + printable(Arrays.copyOfRange(g, MECHANISM_OFFSET,
                    MECHANISM_OFFSET + MECHANISM_BYTES)) + " (only NULL is served)");
        }
    }

    /** A READY command declaring {@code socketType}. */
    static ByteBuffer ready(String socketType) {
        byte[] name = "Socket-Type".getBytes(StandardCharsets.US_ASCII);
        byte[] value = socketType.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer body = ByteBuffer.allocate(1 + 5 + 1 + name.length + 4 + value.length);
        body.put((byte) 5).put("READY".getBytes(StandardCharsets.US_ASCII));
        body.put((byte) name.length).put(name).putInt(value.length).put(value);
        return command(body.array());
    }

    /** An ERROR command: the peer learns why it is dropped. {@code reason} is ASCII, at most 255 bytes. */
    static ByteBuffer error(String reason) {
        byte[] r = reason.getBytes(StandardCharsets.US_ASCII);
        int length = Math.min(r.length, 255);
        ByteBuffer body = ByteBuffer.allocate(1 + 5 + 1 + length);
        body.put((byte) 5).put("ERROR".getBytes(StandardCharsets.US_ASCII)).put((byte) length).put(r, 0, length);
        return command(body.array());
    }

    /** The PONG answering a PING whose command data (TTL then context) is {@code pingData}. */
    static ByteBuffer pong(byte[] pingData) {
        // a PING's data is a 2-byte TTL then up to 16 bytes of context, which the PONG echoes
        int contextLength = Math.max(0, Math.min(16, pingData.length - 2));
        ByteBuffer body = ByteBuffer.allocate(1 + 4 + contextLength);
        body.put((byte) 4).put("PONG".getBytes(StandardCharsets.US_ASCII));
        if (contextLength > 0) {
            body.put(pingData, 2, contextLength);
        }
        return command(body.array());
    }

    private static ByteBuffer command(byte[] body) {
        // every command this server sends is short
        ByteBuffer framed = ByteBuffer.allocate(2 + body.length);
        framed.put((byte) COMMAND).put((byte) body.length).put(body).flip();
        return framed;
    }

    /** A REQ envelope's reply: the empty delimiter frame, then {@code payload} as the last frame. */
    static ByteBuffer reply(byte[] payload) {
        boolean small = payload.length <= 255;
        ByteBuffer out = ByteBuffer.allocate(DELIMITER.length + (small ? 2 : 9) + payload.length);
        out.put(DELIMITER);
        if (small) {
            out.put((byte) 0).put((byte) payload.length);
        } else {
            out.put((byte) LONG).putLong(payload.length);
        }
        out.put(payload).flip();
        return out;
    }

    /** A command's name (the body's first, length-prefixed field); throws when the body is too short for it. */
    static String commandName(byte[] body) throws ZmtpException {
        if (body.length < 1 || body.length < 1 + (body[0] & 0xff)) {
            throw new ZmtpException("a command with a truncated name");
        }
        return new String(body, 1, body[0] & 0xff, StandardCharsets.US_ASCII);
    }

    /** What follows a command's name. */
    static byte[] commandData(byte[] body) {
        return Arrays.copyOfRange(body, 1 + (body[0] & 0xff), body.length);
    }

    /** The Socket-Type property of a READY command's data (its metadata); null when it has none. */
    public static String socketType(byte[] metadata) throws ZmtpException {
        ByteBuffer in = ByteBuffer.wrap(metadata);
        String socketType = null;
        while (in.hasRemaining()) {
            int nameLength = in.get() & 0xff;
            if (nameLength == 0 || in.remaining() < nameLength + 4) {
                throw new ZmtpException("a READY command with a truncated property");
            }
            byte[] name = new byte[nameLength];
            in.get(name);
            int valueLength = in.getInt();
            if (valueLength < 0 || in.remaining() < valueLength) {
                throw new ZmtpException("a READY command with a truncated property value");
            }
            byte[] value = new byte[valueLength];
            in.get(value);
            // property names are case-insensitive (ZMTP 3.1, "The READY Command")
            if ("Socket-Type".equalsIgnoreCase(new String(name, StandardCharsets.US_ASCII))) {
                socketType = new String(value, StandardCharsets.US_ASCII);
            }
        }
        return socketType;
    }

    /** A peer's bytes as something fit for a log line. */
    static String printable(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            if (x == 0) {
                break;
            }
            b.append(x >= 0x20 && x < 0x7f ? (char) x : '?');
        }
        return b.length() == 0 ? "(none)" : b.toString();
    }

    /** A peer broke the protocol: its connection is closed. */
    public static final class ZmtpException extends Exception {
        private static final long serialVersionUID = 1L;

        /** True when the listener has already logged why (a refused frame): the closing need not say it again. */
        final boolean logged;

        ZmtpException(String message) {
            this(message, false);
        }

        ZmtpException(String message, boolean logged) {
            super(message, null, false, false);
            this.logged = logged;
        }
    }
}
