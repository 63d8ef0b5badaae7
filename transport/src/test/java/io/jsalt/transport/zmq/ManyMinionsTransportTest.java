package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A transport for a host of many minions spreads their connections over the I/O threads it was given and their
 * subscriptions over threads of the size it was given, and each subscription still gets every publication.
 */
class ManyMinionsTransportTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Transport masterSide = Transport.create();
    private final PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
    private final List<Subscription> subscriptions = new ArrayList<>();
    private Transport minionSide;

    @AfterEach
    void close() {
        subscriptions.forEach(Subscription::close);
        if (minionSide != null) {
            minionSide.close();
        }
        publisher.close();
        masterSide.close();
    }

    private static long threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }

    @Test
    void tenSubscriptionsOfFourPerThreadTakeThreeThreadsAndEachGetsThePublication() {
        long loopsBefore = threadsNamed("jsalt-sub-");
        long ioBefore = threadsNamed("iothread-");
        minionSide = Transport.createForManyMinions(3, 4);
        int n = 10;
        AtomicInteger[] received = new AtomicInteger[n];
        for (int i = 0; i < n; i++) {
            AtomicInteger count = new AtomicInteger();
            received[i] = count;
            subscriptions.add(minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> count.incrementAndGet()));
        }
        await().atMost(WAIT).until(() -> subscriptions.stream().filter(s -> s.awaitConnected(Duration.ZERO)).count() == n);

        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            publisher.publish("job".getBytes(UTF_8));
            return Arrays.stream(received).allMatch(c -> c.get() > 0);
        });

        assertThat(threadsNamed("jsalt-sub-") - loopsBefore).isEqualTo(3);
        assertThat(threadsNamed("iothread-") - ioBefore).isEqualTo(3);
    }

    @Test
    void aRequestClientOfSuchATransportGetsItsAnswer() {
        minionSide = Transport.createForManyMinions(2, 4);
        try (var server = masterSide.bindRequestServer("127.0.0.1", 0, 1, request -> ("re: " + new String(request, UTF_8)).getBytes(UTF_8));
                var client = minionSide.connectRequestClient("127.0.0.1", server.port())) {
            assertThat(new String(client.request("ping".getBytes(UTF_8), WAIT), UTF_8)).isEqualTo("re: ping");
        }
    }

    @Test
    void refusesATransportWithoutAnIoThreadOrWithoutRoomForASubscription() {
        assertThatThrownBy(() -> Transport.createForManyMinions(0, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one I/O thread");
        assertThatThrownBy(() -> Transport.createForManyMinions(2, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one subscription per thread");
    }
}
