package io.jsalt.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Sends what port scanners send to a ZeroMQ port: a ZMTP 3.0 greeting, then a frame whose 8-byte size has
 * the top bit set. JeroMQ 0.6.0 decodes that size as a negative int, and without a guard its I/O thread
 * is lost (it spins on the half-decoded frame forever, taking every socket of its context with it).
 */
public final class ScannerProbe {
    private ScannerProbe() {}

    /** The 64-byte ZMTP 3.0 greeting of a NULL-mechanism client. */
    public static byte[] greeting() {
        byte[] g = new byte[64];
        g[0] = (byte) 0xff; // signature: 0xFF, 8 padding bytes, 0x7F
        g[9] = 0x7f;
        g[10] = 3; // version 3.0
        g[11] = 0;
        byte[] mechanism = "NULL".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(mechanism, 0, g, 12, mechanism.length); // mechanism, zero-padded to 20 bytes
        return g; // as-server 0, then 31 bytes of filler
    }

    /** A frame with the LARGE flag whose 64-bit size is 0xFFFFFFFFFFFFFFFF: -1 once narrowed to an int. */
    public static byte[] negativeSizeFrame() {
        byte[] f = new byte[9];
        f[0] = 0x02; // flags: LARGE (an 8-byte size follows), not MORE, not COMMAND
        for (int i = 1; i < 9; i++) {
            f[i] = (byte) 0xff;
        }
        return f;
    }

    /**
     * Connects to {@code port}, reads the server's signature so the frame is sure to reach its decoder,
     * sends the frame, and waits for the server to drop the connection (or a few seconds).
     */
    public static void sendTo(int port) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(greeting());
            out.flush();
            byte[] signature = in.readNBytes(10);
            if (signature.length != 10 || (signature[0] & 0xff) != 0xff || signature[9] != 0x7f) {
                throw new IOException("port " + port + " did not answer with a ZMTP signature");
            }
            out.write(negativeSizeFrame());
            out.flush();
            try {
                while (in.read() >= 0) {
                    // the rest of the server's greeting; the end of the stream is the server hanging up
                }
            } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
                // an unguarded server never hangs up; a reset is a hang-up
            }
        }
    }
}
