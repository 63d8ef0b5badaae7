package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Topics;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.ZContext;

/**
 * Hostile subscribers on a real SUB socket over 127.0.0.1. JeroMQ's XPUB adds every subscription to a trie
 * that recurses once per topic byte: one 8,000-byte topic used to kill the publisher thread with a
 * StackOverflowError, and nothing was published again.
 */
class OversizedSubscriptionTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Transport transport = Transport.create();
    private final List<HostileSubscriber> attackers = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        for (HostileSubscriber a : attackers) {
            a.close();
        }
        transport.close();
    }

    private HostileSubscriber hostileSubscriber(int port, byte[]... topics) {
        HostileSubscriber sub = new HostileSubscriber(Endpoints.tcp(HOST, port), List.of(topics));
        attackers.add(sub);
        return sub;
    }

    private static byte[] topicOf(int length, char c) {
        byte[] topic = new byte[length];
        Arrays.fill(topic, (byte) c);
        return topic;
    }

    @Test
    void anEightThousandByteTopicNeverReachesTheTrieAndPublishingGoesOn() {
        PublishServer publisher = transport.bindPublisher(HOST, 0);
        hostileSubscriber(publisher.port(), topicOf(8_000, 'a'));
        hostileSubscriber(publisher.port(), topicOf(100_000, 'b'));

        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription minion = transport.subscribe(HOST, publisher.port(), List.of(Topics.BROADCAST),
                p -> received.add(new String(p, US_ASCII)))) {
            assertThat(minion.awaitConnected(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> {
                publisher.publish(Topics.BROADCAST, "job".getBytes(US_ASCII));
                return received.contains("job");
            });
        }
        assertThat(publisher.isAlive()).as("the publisher thread survived the hostile topics").isTrue();
        assertThat(publisher.subscribedTopics()).noneMatch(t -> t.length() > Topics.MAX_BYTES);
        publisher.close();
    }

    @Test
    void aTopicSizeWithTheTopBitSetCannotSlipPastTheLimitAsItsLow32Bits() throws java.io.IOException {
        PublishServer publisher = transport.bindPublisher(HOST, 0);
        byte[] subscription = topicOf(8_001, 'c');
        subscription[0] = 1;
        try (RawZmtpPeer peer = RawZmtpPeer.handshaken(publisher.port(), "SUB")) {
            // JeroMQ 0.6.0 compares this size as a negative long (below any limit), then keeps its low 32 bits
            peer.sendHeader(0x8000_0000_0000_0000L | subscription.length, false);
            peer.sendBytes(subscription);
        }
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription minion = transport.subscribe(HOST, publisher.port(), List.of(), p -> received.add(new String(p, US_ASCII)))) {
            assertThat(minion.awaitConnected(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> {
                publisher.publish("job".getBytes(US_ASCII));
                return received.contains("job");
            });
        }
        assertThat(publisher.isAlive()).isTrue();
        publisher.close();
    }

    @Test
    void aFortyByteTopicIsTheLongestTheTrieTakes() {
        PublishServer publisher = transport.bindPublisher(HOST, 0);
        String longest = new String(Topics.ofMinion("web1"), US_ASCII);
        String oneTooLong = longest + "0";
        hostileSubscriber(publisher.port(), oneTooLong.getBytes(US_ASCII));
        hostileSubscriber(publisher.port(), longest.getBytes(US_ASCII));

        await().atMost(WAIT).until(() -> publisher.subscribedTopics().contains(longest));
        // the 41-byte topic's connection is dropped by the decoder, reconnects and is dropped again: never counted
        assertThat(publisher.subscribedTopics()).doesNotContain(oneTooLong);
        assertThat(publisher.isAlive()).isTrue();
        publisher.close();
    }

    @Test
    void aFloodOfDistinctTopicsStopsThePublisherInsteadOfGrowingItsTrieWithoutEnd() {
        ZContext context = new ZContext();
        ZmqPublishServer publisher = ZmqPublishServer.start(context, HOST, 0, 50);
        try {
            HostileSubscriber flood = hostileSubscriber(publisher.port());
            for (int i = 0; i < 200; i++) {
                flood.subscribe(String.format("%040d", i).getBytes(US_ASCII));
            }
            await().atMost(WAIT).until(() -> !publisher.isAlive());
            assertThat(publisher.subscribedTopics()).hasSizeLessThanOrEqualTo(50);
        } finally {
            publisher.close();
            context.close();
        }
    }
}
