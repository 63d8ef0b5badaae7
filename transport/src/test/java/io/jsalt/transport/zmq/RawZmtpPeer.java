package io.jsalt.transport.zmq;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A TCP client speaking ZMTP 3.0 by hand: the NULL greeting and a READY command naming a socket type, then
 * whatever frames (or bare frame headers) a test wants a server to see.
 */
final class RawZmtpPeer implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawZmtpPeer(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(5000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Connects and sends nothing: the test writes whatever bytes it wants the server to see. */
    static RawZmtpPeer connected(int port) throws IOException {
        return new RawZmtpPeer(port);
    }

    /** Connects and completes the handshake as a socket of {@code socketType} (DEALER, REQ, SUB, ...). */
    static RawZmtpPeer handshaken(int port, String socketType) throws IOException {
        RawZmtpPeer peer = new RawZmtpPeer(port);
        try {
            peer.out.write(greeting());
            peer.out.write(ready(socketType));
            peer.out.flush();
            if (peer.in.readNBytes(64).length != 64) {
                throw new IOException("no greeting from port " + port);
            }
            peer.readFrame(); // the server's READY
            return peer;
        } catch (IOException e) {
            peer.close();
            throw e;
        }
    }

    /** A NULL greeting of version {@code major}.{@code minor} naming {@code mechanism}. */
    static byte[] greeting(int major, int minor, String mechanism) {
        byte[] greeting = greeting();
        greeting[10] = (byte) major;
        greeting[11] = (byte) minor;
        java.util.Arrays.fill(greeting, 12, 32, (byte) 0);
        System.arraycopy(mechanism.getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, mechanism.length());
        return greeting;
    }

    static byte[] greeting() {
        byte[] greeting = new byte[64];
        greeting[0] = (byte) 0xff;
        greeting[9] = 0x7f;
        greeting[10] = 3;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, 4);
        return greeting;
    }

    static byte[] ready(String socketType) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(5);
        body.writeBytes("READY".getBytes(StandardCharsets.US_ASCII));
        body.write(11);
        body.writeBytes("Socket-Type".getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(ByteBuffer.allocate(4).putInt(socketType.length()).array());
        body.writeBytes(socketType.getBytes(StandardCharsets.US_ASCII));
        byte[] b = body.toByteArray();
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x04); // a short command
        frame.write(b.length);
        frame.writeBytes(b);
        return frame.toByteArray();
    }

    /** Raw bytes, as they are. */
    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Exactly {@code n} bytes from the server (fewer only if it hangs up). */
    byte[] read(int n) throws IOException {
        return in.readNBytes(n);
    }

    /** A command frame: {@code name} then {@code data}. */
    void sendCommand(String name, byte[] data) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(name.length());
        body.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(data);
        byte[] b = body.toByteArray();
        out.write(0x04);
        out.write(b.length);
        out.write(b);
        out.flush();
    }

    /** The next frame's flags and body; null when the server hangs up first. */
    Frame readFrameWithFlags() throws IOException {
        int flags = in.read();
        if (flags < 0) {
            return null;
        }
        long size = (flags & 0x02) != 0 ? ByteBuffer.wrap(in.readNBytes(8)).getLong() : in.read();
        return new Frame(flags, in.readNBytes((int) size));
    }

    record Frame(int flags, byte[] body) {
        boolean command() {
            return (flags & 0x04) != 0;
        }

        boolean more() {
            return (flags & 0x01) != 0;
        }
    }

    /** A whole frame. */
    void sendFrame(byte[] body, boolean more) throws IOException {
        sendHeader(body.length, more);
        out.write(body);
        out.flush();
    }

    /** Only a long frame's header, declaring {@code size} bytes that may never come. */
    void sendHeader(long size, boolean more) throws IOException {
        out.write(ByteBuffer.allocate(9).put((byte) (0x02 | (more ? 0x01 : 0))).putLong(size).array());
        out.flush();
    }

    /** Part of a frame's body (after {@link #sendHeader}). */
    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next frame's body. */
    byte[] readFrame() throws IOException {
        int flags = in.read();
        if (flags < 0) {
            throw new IOException("closed by the server");
        }
        long size = (flags & 0x02) != 0 ? ByteBuffer.wrap(in.readNBytes(8)).getLong() : in.read();
        return in.readNBytes((int) size);
    }

    /** Whether the server sends a frame within the read timeout (false when it stays silent or hangs up). */
    boolean receivesAFrame() {
        try {
            readFrame();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the server hangs up (or resets) within the read timeout. */
    boolean hungUpByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // whatever the server still sends before it hangs up
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
