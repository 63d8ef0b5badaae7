package io.jsalt.master.ports;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

/**
 * Waits until a TCP port can be bound again. JeroMQ closes listening sockets on its I/O thread after
 * close() returns, so a caller that restarts on the same ports (in the same process) waits for this.
 */
public final class PortRelease {
    private static final long CHECK_EVERY_MS = 50;

    private PortRelease() {}

    /** True once {@code host:port} is free, false if it is still taken after {@code timeout}. */
    public static boolean await(String host, int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!bindable(host, port)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(CHECK_EVERY_MS); // the release has no event to wait on: poll the port itself
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private static boolean bindable(String host, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("0.0.0.0".equals(host) ? "0.0.0.0" : host, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
