package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions of one transport share a few loop threads (a benchmark runs thousands of minions in one
 * JVM), and each still behaves as if it had its own: its own deliveries, its own close.
 */
class SharedSubscriptionLoopTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Transport masterSide = Transport.create();
    private final Transport minionSide = Transport.create();
    private final PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
    private final List<Subscription> subscriptions = new ArrayList<>();

    @AfterEach
    void close() {
        subscriptions.forEach(Subscription::close);
        minionSide.close();
        publisher.close();
        masterSide.close();
    }

    private static long loopThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("jsalt-sub-")).count();
    }

    @Test
    void sixHundredSubscriptionsAreServedByTwoThreadsAndEachGetsThePublication() {
        long before = loopThreads();
        int n = SubscriptionLoop.CAPACITY + 88;
        AtomicInteger[] received = new AtomicInteger[n];
        for (int i = 0; i < n; i++) {
            AtomicInteger count = new AtomicInteger();
            received[i] = count;
            subscriptions.add(minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> count.incrementAndGet()));
        }
        // JeroMQ retries a connection whose handshake stalled after 2 s: wait for all of them together
        await().atMost(WAIT).until(() -> subscriptions.stream().filter(s -> s.awaitConnected(Duration.ZERO)).count() == n);

        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            publisher.publish("job".getBytes(UTF_8));
            return java.util.Arrays.stream(received).allMatch(c -> c.get() > 0);
        });

        assertThat(loopThreads() - before).isEqualTo(2);
    }

    @Test
    void aClosedSubscriptionGetsNothingMoreWhileItsNeighbourOnTheSameThreadStillDoes() {
        List<String> first = new CopyOnWriteArrayList<>();
        List<String> second = new CopyOnWriteArrayList<>();
        Subscription a = minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> first.add(new String(p, UTF_8)));
        Subscription b = minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> second.add(new String(p, UTF_8)));
        subscriptions.add(b);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("warm".getBytes(UTF_8));
            return !first.isEmpty() && !second.isEmpty();
        });

        a.close();
        int seen = first.size();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("after".getBytes(UTF_8));
            return second.contains("after");
        });

        assertThat(first).hasSize(seen).doesNotContain("after");
    }

    @Test
    void aListenerMayCloseItsOwnSubscriptionFromInsideTheCallback() {
        AtomicReference<Subscription> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        List<String> neighbour = new CopyOnWriteArrayList<>();
        Subscription s = minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> {
            calls.incrementAndGet();
            self.get().close();
        });
        self.set(s);
        subscriptions.add(minionSide.subscribe("127.0.0.1", publisher.port(), List.of(), p -> neighbour.add(new String(p, UTF_8))));

        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("x".getBytes(UTF_8));
            return calls.get() > 0 && neighbour.size() >= 3;
        });

        assertThat(calls.get()).isEqualTo(1);
    }
}
