package io.jsalt.master.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay from a listening port to a backend port that can be frozen: from then on it reads what both
 * sides send and forwards nothing, as a ZeroMQ context whose I/O thread is lost. Closing it frees the port.
 */
public final class FreezableTcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int backendPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    public FreezableTcpProxy(int port, int backendPort) throws IOException {
        this.server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        this.backendPort = backendPort;
        Thread acceptor = new Thread(this::accept, "proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public void freeze() {
        frozen = true;
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket backend = new Socket(InetAddress.getLoopbackAddress(), backendPort);
                sockets.add(client);
                sockets.add(backend);
                pump(client, backend);
                pump(backend, client);
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (!frozen) {
                        out.write(buf, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // either side gone
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
