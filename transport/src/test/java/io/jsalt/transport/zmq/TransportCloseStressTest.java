package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A transport closed while every kind of socket it made is in use on its own thread: a request client
 * mid-request, the request server's router and workers answering, the publisher sending and a
 * subscription receiving. Closing once let two threads close the same socket and JeroMQ's reaper died
 * ({@code slots[tid]} null), after which the close waited for ever (a suite run that never ended). Each
 * round must close within the close wait with nothing left open and no JeroMQ thread dead.
 */
class TransportCloseStressTest {
    private static final int ROUNDS = 1_000;
    private static final long HANDLER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final byte[] PING = "ping".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aThousandTransportsClosedWithEverySocketInUseNeitherHangNorLoseAJeroMqThread() throws Exception {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        List<String> problems = new ArrayList<>();
        for (int round = 0; round < ROUNDS && problems.isEmpty(); round++) {
            // every other round closes before anything answered: mid-handshake, mid-connect
            problems.addAll(closeWhileInUse(round, round % 2 == 0));
        }
        assertThat(problems).isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> transportThreadsStartedSince(before).isEmpty());
    }

    private static List<String> closeWhileInUse(int round, boolean waitUntilUsed) throws InterruptedException {
        ZmqTransport transport = new ZmqTransport();
        // a handler that takes a moment, so that a close mostly finds a worker inside it
        RequestServer server = transport.bindRequestServer("127.0.0.1", 0, 2, request -> {
            LockSupport.parkNanos(HANDLER_NANOS);
            return request;
        });
        PublishServer publisher = transport.bindPublisher("127.0.0.1", 0);
        CountDownLatch received = new CountDownLatch(1);
        Subscription subscription = transport.subscribe("127.0.0.1", publisher.port(), List.of(), p -> received.countDown());
        RequestClient client = transport.connectRequestClient("127.0.0.1", server.port());
        CountDownLatch answered = new CountDownLatch(1);
        Thread requester = new Thread(() -> {
            try {
                while (true) {
                    client.request(PING, Duration.ofSeconds(10));
                    answered.countDown();
                }
            } catch (RuntimeException e) {
                // the transport closed under it: the way out
            }
        }, "stress-requester-" + round);
        Thread sender = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    publisher.publish(PING);
                    Thread.sleep(1); // pacing a publisher, not waiting for a condition
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stress-sender-" + round);
        requester.start();
        sender.start();
        if (waitUntilUsed) {
            answered.await(10, TimeUnit.SECONDS);
            received.await(10, TimeUnit.SECONDS);
        }

        transport.close();

        sender.interrupt();
        requester.join(TimeUnit.SECONDS.toMillis(10));
        sender.join(TimeUnit.SECONDS.toMillis(10));
        subscription.close();
        List<String> problems = new ArrayList<>();
        if (requester.isAlive()) {
            problems.add("round " + round + ": a request in flight did not end with the transport");
        }
        if (!transport.closedCleanly()) {
            problems.add("round " + round + ": sockets left open: " + transport.leftOpen());
        }
        transport.threadFailures().forEach(f -> problems.add("round " + round + ": JeroMQ thread died: " + f));
        transport.notifications().forEach(f -> problems.add("round " + round + ": JeroMQ I/O thread caught: " + f));
        if (waitUntilUsed && (answered.getCount() > 0 || received.getCount() > 0)) {
            problems.add("round " + round + ": the sockets were never in use (answered " + (answered.getCount() == 0)
                    + ", received " + (received.getCount() == 0) + ")");
        }
        return problems;
    }

    private static List<String> transportThreadsStartedSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t))
                .map(Thread::getName)
                .filter(n -> n.startsWith("jsalt-") || n.startsWith("reaper-") || n.startsWith("iothread-"))
                .toList();
    }
}
