package io.jsalt.transport.zmq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A publisher runs on a socket context (two I/O threads) of its own, apart from the request port's, and
 * gives both back when it is closed, so a master can bind it again on the same port.
 */
class PublisherOwnIoThreadTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Transport masterSide = Transport.create();
    private final Transport minionSide = Transport.create();

    @AfterEach
    void close() {
        minionSide.close();
        masterSide.close();
    }

    private static long ioThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("iothread-")).count();
    }

    @Test
    void aPublisherHasIoThreadsOfItsOwnAndGivesThemBackWhenClosed() {
        masterSide.bindRequestServer("127.0.0.1", 0, 1, r -> r).port(); // the transport's own context is in use
        long before = ioThreads();

        PublishServer publisher = masterSide.bindPublisher("127.0.0.1", 0);
        assertThat(ioThreads()).isEqualTo(before + 2);

        publisher.close();
        await().atMost(WAIT).until(() -> ioThreads() == before);
    }

    @Test
    void aClosedPublishersPortCanBeBoundAgainAndServesSubscribers() {
        PublishServer first = masterSide.bindPublisher("127.0.0.1", 0);
        int port = first.port();
        first.close();

        PublishServer again = masterSide.bindPublisher("127.0.0.1", port);
        List<String> got = new CopyOnWriteArrayList<>();
        Subscription s = minionSide.subscribe("127.0.0.1", port, List.of(), p -> got.add(new String(p, UTF_8)));
        assertThat(s.awaitConnected(WAIT)).isTrue();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            again.publish("hello".getBytes(UTF_8));
            return got.contains("hello");
        });
        s.close();
    }
}
