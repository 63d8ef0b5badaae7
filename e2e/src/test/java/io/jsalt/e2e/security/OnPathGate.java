package io.jsalt.e2e.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An on-path attacker between a minion and its master: listens on another loopback address with the
 * master's port number and forwards each connection to the master, except the next one after
 * {@link #serveNextAsRogue}, which it answers itself, speaking ZMTP as the master would.
 */
final class OnPathGate implements AutoCloseable {
    /** What the gate does with a connection it answers itself. */
    interface RogueAct {
        void serve(Socket connection) throws IOException;
    }

    private final ServerSocket server;
    private final int targetPort;
    private final AtomicReference<RogueAct> nextRogue = new AtomicReference<>();
    private final AtomicInteger rogueDone = new AtomicInteger();
    private final List<Socket> forwarded = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    OnPathGate(InetAddress listen, int port, int targetPort) throws IOException {
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(listen, port));
        this.targetPort = targetPort;
        daemon(this::accept, "on-path-gate-" + port);
    }

    /** The next connection is answered by {@code act} instead of the master. */
    void serveNextAsRogue(RogueAct act) {
        nextRogue.set(act);
    }

    /** How many rogue acts have run to their end. */
    int rogueServed() {
        return rogueDone.get();
    }

    /** Cuts every forwarded connection, as a network blip would: the minion connects again. */
    void dropForwarded() throws IOException {
        for (Socket s : forwarded) {
            s.close();
        }
        forwarded.clear();
    }

    private void accept() {
        while (open) {
            try {
                Socket client = server.accept();
                RogueAct rogue = nextRogue.getAndSet(null);
                if (rogue != null) {
                    daemon(() -> {
                        try (client) {
                            rogue.serve(client);
                        } catch (IOException e) {
                            // the minion hung up: what a rogue act expects
                        } finally {
                            rogueDone.incrementAndGet();
                        }
                    }, "on-path-rogue");
                } else {
                    forward(client);
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void forward(Socket client) throws IOException {
        Socket master = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        forwarded.add(client);
        forwarded.add(master);
        daemon(() -> pump(client, master), "on-path-up");
        daemon(() -> pump(master, client), "on-path-down");
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        open = false;
        server.close();
        dropForwarded();
    }
}
