package io.jsalt.bench.swarm;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends request frames made beforehand (sign-ins, returns, already encrypted and sealed) to a master's request
 * port as fast as it answers them, over {@code clients} request connections, each on its own thread with one
 * request in flight (a REQ socket's lockstep, as a minion's). Nothing is computed while it runs but the
 * transport's own work, so the time and the master's CPU are the master's. Salt's master and jsalt's speak
 * the same request wire, so the same swarm serves both.
 */
public final class ReplaySwarm {
    /** What came back: every answer, in the order of the frames; {@code failed} frames got none. */
    public record Outcome(List<byte[]> answers, int failed, double wallSeconds) {}

    private ReplaySwarm() {
    }

    public static Outcome send(String host, int port, List<byte[]> frames, int clients, Duration timeout) {
        byte[][] answers = new byte[frames.size()][];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Transport transport = Transport.create();
        List<RequestClient> connections = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                connections.add(transport.connectRequestClient(host, port));
            }
            List<Thread> threads = new ArrayList<>();
            long t0 = System.nanoTime();
            for (RequestClient client : connections) {
                Thread t = new Thread(() -> {
                    for (int i = next.getAndIncrement(); i < frames.size(); i = next.getAndIncrement()) {
                        try {
                            answers[i] = client.request(frames.get(i), timeout);
                        } catch (TransportException e) {
                            failed.incrementAndGet();
                        }
                    }
                }, "replay-swarm");
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            return new Outcome(java.util.Arrays.asList(answers), failed.get(), wall);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            connections.forEach(RequestClient::close);
            transport.close();
        }
    }
}
