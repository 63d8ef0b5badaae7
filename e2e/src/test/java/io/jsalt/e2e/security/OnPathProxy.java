package io.jsalt.e2e.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An attacker on the path between a minion and its master: a TCP relay that listens on one loopback
 * address and forwards each connection to a port on 127.0.0.1, recording what the client sent on each
 * connection. The target can be switched, so connections made later reach another server (a rogue
 * publisher). ZeroMQ runs here without ZMTP-level security (as in Salt), so a recorded client stream,
 * sent again whole, is a replay of every request in it.
 */
final class OnPathProxy implements AutoCloseable {
    private final ServerSocket server;
    private volatile int targetPort;
    private final List<ByteArrayOutputStream> clientStreams = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private OnPathProxy(ServerSocket server, int targetPort) {
        this.server = server;
        this.targetPort = targetPort;
        Thread acceptor = new Thread(this::acceptLoop, "on-path-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens on {@code host:port} and relays to {@code 127.0.0.1:targetPort}. */
    static OnPathProxy listen(String host, int port, int targetPort) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        return new OnPathProxy(s, targetPort);
    }

    /** Connections accepted from now on go to {@code 127.0.0.1:port}. */
    void redirectTo(int port) {
        targetPort = port;
    }

    /** What the clients sent, one byte array per connection, in the order the connections came. */
    List<byte[]> recordedConnections() {
        List<byte[]> out = new ArrayList<>();
        for (ByteArrayOutputStream b : clientStreams) {
            synchronized (b) {
                out.add(b.toByteArray());
            }
        }
        return out;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                ByteArrayOutputStream record = new ByteArrayOutputStream();
                clientStreams.add(record);
                pump(client.getInputStream(), upstream.getOutputStream(), record, client, upstream);
                pump(upstream.getInputStream(), client.getOutputStream(), null, client, upstream);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection drop
            }
        }
    }

    private static void pump(InputStream in, OutputStream out, ByteArrayOutputStream record, Socket a, Socket b) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (record != null) {
                        synchronized (record) {
                            record.write(buf, 0, n);
                        }
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }, "on-path-pump");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Sends a recorded client stream to {@code 127.0.0.1:port} on a new connection, paced through the ZMTP
     * greeting as a real peer does (signature, major version, rest of the greeting, each after the server's
     * part: JeroMQ does not take a whole greeting at once), then the rest, and reads the answers for a while.
     */
    static void replay(byte[] bytes, int port) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            int[][] steps = {{0, 10, 10}, {10, 11, 1}, {11, 64, 53}};
            for (int[] step : steps) {
                out.write(bytes, step[0], step[1] - step[0]);
                out.flush();
                in.readNBytes(step[2]);
            }
            out.write(bytes, 64, bytes.length - 64);
            out.flush();
            byte[] sink = new byte[8192];
            try {
                while (in.read(sink) >= 0) {
                    // the master's answers go to the attacker, who cannot read them anyway
                }
            } catch (java.net.SocketTimeoutException e) {
                // answered all it was going to
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closeQuietly(new Socket());
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(OnPathProxy::closeQuietly);
    }
}
