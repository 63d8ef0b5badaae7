package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.ConnectionListener;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A subscription tells its connection listener when the publisher goes away and when it is back, which is
 * how a minion notices a master restart without waiting for a publication it cannot read. The publisher
 * lives in a transport of its own, as a master lives in a process of its own.
 */
class SubscriptionConnectionEventsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Transport minionSide = Transport.create();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private Transport masterSide = Transport.create();
    private Subscription subscription;

    @AfterEach
    void close() {
        if (subscription != null) {
            subscription.close();
        }
        minionSide.close();
        masterSide.close();
    }

    private final ConnectionListener recorder = new ConnectionListener() {
        @Override
        public void onConnected() {
            events.add("connected");
        }

        @Override
        public void onDisconnected() {
            events.add("disconnected");
        }
    };

    @Test
    void reportsThePublisherGoingAwayAndComingBackOnTheSamePort() {
        PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
        int port = publisher.port();
        subscription = minionSide.subscribe("127.0.0.1", port, List.of(), p -> {});
        assertThat(subscription.awaitConnected(WAIT)).isTrue();
        subscription.connectionListener(recorder);

        publisher.close();
        masterSide.close();
        await().atMost(WAIT).until(() -> events.contains("disconnected"));
        assertThat(events).containsExactly("disconnected");

        masterSide = Transport.create();
        masterSide.bindPublisher("127.0.0.1", port);
        await().atMost(WAIT).until(() -> events.size() == 2);
        assertThat(events).containsExactly("disconnected", "connected");
    }

    @Test
    void attemptsThatNeverFinishTheirHandshakeAreNotALostConnection() throws IOException {
        // a port that accepts and hangs up before the ZMTP greeting, as a publisher too busy to answer in time
        try (ServerSocket hangsUp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger attempts = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (true) {
                    try (Socket s = hangsUp.accept()) {
                        attempts.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            subscription = minionSide.subscribe("127.0.0.1", hangsUp.getLocalPort(), List.of(), p -> {});
            subscription.connectionListener(recorder);

            await().atMost(WAIT).until(() -> attempts.get() >= 4);

            assertThat(events).isEmpty();
        }
    }

    @Test
    void aListenerSetAfterTheFirstConnectHearsNothingUntilSomethingChanges() {
        PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
        subscription = minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> {});
        assertThat(subscription.awaitConnected(WAIT)).isTrue();

        subscription.connectionListener(recorder);

        await().during(Duration.ofMillis(500)).atMost(WAIT).until(events::isEmpty);
    }
}
