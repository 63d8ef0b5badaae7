package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Closing subscriptions whose publisher is gone (their socket retries the connect every reconnect interval, and
 * its monitor reports each retry) leaves the transport serving: a failover minion closes its subscription to the
 * master that died and signs in to the next one on the same transport. JeroMQ writes monitor events from the
 * I/O thread with a blocking send, so an event written after the monitor's reader was closed used to block the
 * I/O thread, and every later request on the transport then waited out its timeout.
 */
class SubscriptionToAGoneHostCloseTest {
    private final Transport minionSide = Transport.create();
    private final Transport masterSide = Transport.create();

    @AfterEach
    void close() {
        minionSide.close();
        masterSide.close();
    }

    @Test
    void requestsStillGoOutAfterManySubscriptionsToAGoneHostWereClosed() throws IOException {
        int gone = goneHostPort();
        RequestServer server = masterSide.bindRequestServer("127.0.0.1", 0, 2, frame -> frame);
        RequestClient client = minionSide.connectRequestClient("127.0.0.1", server.port());
        for (int round = 0; round < 5; round++) {
            List<Subscription> subs = new java.util.ArrayList<>();
            for (int i = 0; i < 60; i++) {
                subs.add(minionSide.subscribe("127.0.0.1", gone, List.of(), frame -> { }));
            }
            // the connects to the gone host are retried (and reported) meanwhile; they never succeed
            assertThat(subs.get(subs.size() - 1).awaitConnected(Duration.ofMillis(150L + round * 100L))).isFalse();
            subs.forEach(Subscription::close);
        }

        for (int i = 0; i < 20; i++) {
            byte[] ping = ("ping " + i).getBytes(StandardCharsets.US_ASCII);
            assertThat(client.request(ping, Duration.ofSeconds(10))).as("answer %d", i).isEqualTo(ping);
        }
        client.close();
        server.close();
    }

    /** A loopback port that nothing listens on: bound, then released. */
    private static int goneHostPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
