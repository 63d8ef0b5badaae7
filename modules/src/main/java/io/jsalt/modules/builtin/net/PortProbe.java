package io.jsalt.modules.builtin.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * Whether a TCP port accepts a connection, or a UDP peer answers a datagram, within a timeout; Salt's
 * {@code network.connect} test. It waits in a selector rather than in a blocking socket call, because a selector
 * wakes up when the job's thread is interrupted (a killed job) and a blocking connect does not.
 */
public final class PortProbe {

    private PortProbe() {
    }

    /**
     * Connects (TCP) or sends a one-byte datagram and waits for any answer (UDP); false on any failure.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    public static boolean reachable(InetAddress address, int port, boolean udp, int timeoutMillis)
            throws InterruptedException {
        InetSocketAddress target = new InetSocketAddress(address, port);
        try (Selector selector = Selector.open()) {
            return udp ? answersDatagram(selector, target, timeoutMillis) : acceptsConnection(selector, target,
                    timeoutMillis);
        } catch (IOException | RuntimeException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while probing " + target);
            }
            return false;
        }
    }

    private static boolean acceptsConnection(Selector selector, InetSocketAddress target, int timeoutMillis)
            throws IOException, InterruptedException {
        try (SocketChannel channel = SocketChannel.open()) {
            channel.configureBlocking(false);
            if (channel.connect(target)) {
                return true;
            }
            return ready(selector, channel, SelectionKey.OP_CONNECT, timeoutMillis) && channel.finishConnect();
        }
    }

    private static boolean answersDatagram(Selector selector, InetSocketAddress target, int timeoutMillis)
            throws IOException, InterruptedException {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.configureBlocking(false);
            channel.connect(target);
            // one NUL byte: an empty datagram is not put on the wire by every stack
            channel.write(ByteBuffer.wrap(new byte[1]));
            if (!ready(selector, channel, SelectionKey.OP_READ, timeoutMillis)) {
                return false;
            }
            // an ICMP port-unreachable surfaces here as PortUnreachableException, an IOException
            return channel.read(ByteBuffer.allocate(512)) >= 0;
        }
    }

    /** Waits until {@code channel} is ready for {@code op}, the timeout passes, or the thread is interrupted. */
    private static boolean ready(Selector selector, SelectableChannel channel, int op, int timeoutMillis)
            throws IOException, InterruptedException {
        channel.register(selector, op);
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            int selected = selector.select(left);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for " + channel);
            }
            if (selected > 0) {
                return true;
            }
        }
    }
}
