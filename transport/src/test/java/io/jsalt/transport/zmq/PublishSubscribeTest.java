package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.message.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The publish port on real JeroMQ PUB/SUB sockets over 127.0.0.1. A SUB's subscription reaches the PUB a
 * little after the handshake (ZeroMQ's slow joiner), so tests publish repeatedly until the first delivery.
 */
class PublishSubscribeTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private static final byte[] WEB1 = Topics.ofMinion("web1");
    private static final byte[] WEB2 = Topics.ofMinion("web2");

    private final Transport transport = Transport.create();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        Collections.reverse(opened);
        for (AutoCloseable c : opened) {
            c.close();
        }
        transport.close();
    }

    private <T extends AutoCloseable> T open(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    private PublishServer publisher() {
        return open(transport.bindPublisher(HOST, 0));
    }

    /** A subscription that records each delivered payload as text. */
    private Received subscribe(int port, byte[]... topics) {
        Received received = new Received();
        received.subscription = open(transport.subscribe(HOST, port, List.of(topics), p -> received.add(new String(p, UTF_8))));
        return received;
    }

    private static final class Received {
        final List<String> payloads = new CopyOnWriteArrayList<>();
        Subscription subscription;

        void add(String payload) {
            payloads.add(payload);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void deliversASingleFramePublicationToASubscriberOfEverything() {
        PublishServer pub = publisher();
        Received all = subscribe(pub.port());

        assertThat(all.subscription.awaitConnected(CONNECT)).isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            pub.publish(utf8("job-1"));
            return !all.payloads.isEmpty();
        });

        assertThat(pub.port()).isPositive();
        assertThat(all.payloads).allMatch("job-1"::equals);
    }

    @Test
    void deliversEachPublicationWholeAndInOrder() {
        PublishServer pub = publisher();
        Received all = subscribe(pub.port());
        assertThat(all.subscription.awaitConnected(CONNECT)).isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            pub.publish(utf8("warm-up"));
            return !all.payloads.isEmpty();
        });
        String big = "x".repeat(1 << 20);

        for (int i = 0; i < 100; i++) {
            pub.publish(utf8("n" + i));
        }
        pub.publish(utf8(big));

        await().atMost(Duration.ofSeconds(10)).until(() -> all.payloads.contains(big));
        List<String> numbered = all.payloads.stream().filter(p -> p.startsWith("n")).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add("n" + i);
        }
        assertThat(numbered).containsExactlyElementsOf(expected);
    }

    @Test
    void deliversTwoFramePublicationsOnlyToSubscribersOfTheirTopic() {
        PublishServer pub = publisher();
        Received web1 = subscribe(pub.port(), WEB1);
        Received web2 = subscribe(pub.port(), Topics.BROADCAST, WEB2);
        Received all = subscribe(pub.port());
        for (Received r : List.of(web1, web2, all)) {
            assertThat(r.subscription.awaitConnected(CONNECT)).isTrue();
        }

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            // in each round the payloads a subscriber must not see are published before the one it must see
            pub.publish(WEB2, utf8("for-web2"));
            pub.publish(Topics.BROADCAST, utf8("for-everyone"));
            pub.publish(WEB1, utf8("for-web1"));
            return web1.payloads.contains("for-web1")
                    && web2.payloads.contains("for-web2") && web2.payloads.contains("for-everyone")
                    && all.payloads.contains("for-web1") && all.payloads.contains("for-web2");
        });

        assertThat(web1.payloads).containsOnly("for-web1");
        assertThat(web2.payloads).containsOnly("for-web2", "for-everyone");
        assertThat(all.payloads).containsOnly("for-web1", "for-web2", "for-everyone");
    }

    @Test
    void stopsDeliveringOnceTheSubscriptionIsClosed() {
        PublishServer pub = publisher();
        Received closing = subscribe(pub.port());
        Received staying = subscribe(pub.port());
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            pub.publish(utf8("before"));
            return !closing.payloads.isEmpty() && !staying.payloads.isEmpty();
        });

        closing.subscription.close();
        int seenBeforeClose = closing.payloads.size();
        pub.publish(utf8("after"));

        // the subscription still open got "after", so the closed one would have had it by now
        await().atMost(Duration.ofSeconds(10)).until(() -> staying.payloads.contains("after"));
        assertThat(closing.payloads).hasSize(seenBeforeClose).doesNotContain("after");
    }

    @Test
    void keepsDeliveringAfterTheListenerThrows() {
        PublishServer pub = publisher();
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        Subscription sub = open(transport.subscribe(HOST, pub.port(), List.of(), p -> {
            seen.add(new String(p, UTF_8));
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("listener failure");
            }
        }));
        assertThat(sub.awaitConnected(CONNECT)).isTrue();

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            pub.publish(utf8("again"));
            return calls.get() >= 2;
        });

        assertThat(seen).hasSizeGreaterThanOrEqualTo(2).allMatch("again"::equals);
    }

    @Test
    void connectsOnceAPublisherAppearsOnThePort() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            port = probe.getLocalPort();
        }
        Received early = subscribe(port);

        assertThat(early.subscription.awaitConnected(Duration.ofMillis(300))).isFalse();

        PublishServer pub = open(transport.bindPublisher(HOST, port));
        assertThat(early.subscription.awaitConnected(CONNECT)).isTrue();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            pub.publish(utf8("late"));
            return early.payloads.contains("late");
        });
    }

    @Test
    void refusesToBindAPublisherOnAPortAlreadyInUseAndNamesTheEndpoint() {
        int port = publisher().port();

        assertThatThrownBy(() -> open(transport.bindPublisher(HOST, port)))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("tcp://127.0.0.1:" + port);
    }
}
