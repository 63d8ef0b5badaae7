package io.jsalt.modules.builtin.net;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Whether a TCP port accepts a connection, or a UDP peer answers a datagram, within a timeout; Salt's
 * {@code network.connect} test.
 */
public final class PortProbe {

    private PortProbe() {
    }

    /** Connects (TCP) or sends a one-byte datagram and waits for any answer (UDP); false on any failure. */
    public static boolean reachable(InetAddress address, int port, boolean udp, int timeoutMillis) {
        try {
            if (udp) {
                try (DatagramSocket socket = new DatagramSocket()) {
                    socket.setSoTimeout(timeoutMillis);
                    socket.connect(address, port);
                    // one NUL byte: the JDK's datagram socket does not put an empty datagram on the wire
                    socket.send(new DatagramPacket(new byte[1], 1));
                    socket.receive(new DatagramPacket(new byte[512], 512));
                }
            } else {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, port), timeoutMillis);
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
