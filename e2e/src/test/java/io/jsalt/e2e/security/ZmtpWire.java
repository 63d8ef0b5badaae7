package io.jsalt.e2e.security;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
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
 * ZMTP 3.0 spoken by hand over one TCP connection, either side: the NULL greeting, the READY command naming a
 * socket type, then whole frames or bare frame headers declaring sizes that may never come.
 */
final class ZmtpWire implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    ZmtpWire(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to a port on 127.0.0.1 and completes the handshake as a socket of {@code socketType}. */
    static ZmtpWire connect(int port, String socketType) throws IOException {
        ZmtpWire wire = new ZmtpWire(new Socket(InetAddress.getLoopbackAddress(), port));
        wire.handshake(socketType);
        return wire;
    }

    /** Sends the greeting and READY as {@code socketType}, reads the peer's. */
    void handshake(String socketType) throws IOException {
        out.write(greeting());
        out.write(command(ready(socketType)));
        out.flush();
        in.readFully(new byte[64]);
        readFrame();
    }

    private static byte[] greeting() {
        byte[] greeting = new byte[64];
        greeting[0] = (byte) 0xff;
        greeting[9] = 0x7f;
        greeting[10] = 3;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, greeting, 12, 4);
        return greeting;
    }

    private static byte[] ready(String socketType) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(5);
        body.writeBytes("READY".getBytes(StandardCharsets.US_ASCII));
        body.write(11);
        body.writeBytes("Socket-Type".getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(ByteBuffer.allocate(4).putInt(socketType.length()).array());
        body.writeBytes(socketType.getBytes(StandardCharsets.US_ASCII));
        return body.toByteArray();
    }

    private static byte[] command(byte[] body) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x04);
        frame.write(body.length);
        frame.writeBytes(body);
        return frame.toByteArray();
    }

    /** A whole frame. */
    void sendFrame(byte[] body, boolean more) throws IOException {
        sendHeader(body.length, more);
        out.write(body);
        out.flush();
    }

    /** A long frame's header only, declaring {@code size} bytes. */
    void sendHeader(long size, boolean more) throws IOException {
        out.write(ByteBuffer.allocate(9).put((byte) (0x02 | (more ? 0x01 : 0))).putLong(size).array());
        out.flush();
    }

    /** {@code size} zero bytes of a frame's body, in chunks, until done or the peer hangs up; bytes written. */
    long sendBody(long size) {
        byte[] chunk = new byte[64 * 1024];
        long written = 0;
        try {
            while (written < size) {
                int n = (int) Math.min(chunk.length, size - written);
                out.write(chunk, 0, n);
                written += n;
            }
            out.flush();
        } catch (IOException e) {
            // the peer dropped the connection: what the test wants to see
        }
        return written;
    }

    /** The next frame's body; commands included. */
    byte[] readFrame() throws IOException {
        int flags = in.readUnsignedByte();
        long size = (flags & 0x02) != 0 ? in.readLong() : in.readUnsignedByte();
        byte[] body = new byte[(int) size];
        in.readFully(body);
        return body;
    }

    /** Whether the peer hangs up (or resets) within the read timeout. */
    boolean hungUpByPeer() throws IOException {
        InputStream raw = in;
        try {
            while (raw.read() >= 0) {
                // whatever the peer still sends before it hangs up
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
