package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.ClientLimits;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.ZContext;

/**
 * A subscription loop with nothing time-bound ahead waits long between polls (an idle minion's CPU); a new
 * subscription, a closed one and the loop's own stop wake it at once. The loop here waits an hour when idle,
 * so each step below happens only if the wake-up works.
 */
class SubscriptionLoopWakeUpTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Transport masterSide = Transport.create();
    private final PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
    private final ZContext context = new ZContext();
    private final SubscriptionLoop loop = new SubscriptionLoop(context, new PollerNudge(context), 90, Duration.ofHours(1).toMillis());

    @AfterEach
    void close() {
        loop.close();
        context.close();
        publisher.close();
        masterSide.close();
    }

    @Test
    void aSubscriptionAddedToAnIdleLoopIsOpenedAtOnceAndAClosedOneStopsGettingPublications() {
        List<String> first = new CopyOnWriteArrayList<>();
        ZmqSubscription a = subscribe(first);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("one".getBytes(UTF_8));
            return !first.isEmpty();
        });
        // the loop is idle now (a's handshake is done): the next addition must wake it
        List<String> second = new CopyOnWriteArrayList<>();
        ZmqSubscription b = subscribe(second);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("two".getBytes(UTF_8));
            return !second.isEmpty();
        });

        a.close();
        int seen = first.size();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("three".getBytes(UTF_8));
            return second.contains("three");
        });
        assertThat(first).hasSize(seen);
        b.close();
    }

    @Test
    void stoppingAnIdleLoopEndsItsThreadAtOnce() {
        List<String> got = new CopyOnWriteArrayList<>();
        subscribe(got);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            publisher.publish("one".getBytes(UTF_8));
            return !got.isEmpty();
        });

        loop.stop();

        await().atMost(WAIT).until(() -> !loop.isRunning());
    }

    private ZmqSubscription subscribe(List<String> into) {
        assertThat(loop.reserve()).isTrue();
        return ZmqSubscription.start(loop, Endpoints.tcp("127.0.0.1", publisher.port()), List.of(), p -> into.add(new String(p, UTF_8)),
                ClientLimits.DEFAULT_MAX_PUBLICATION_BYTES);
    }
}
