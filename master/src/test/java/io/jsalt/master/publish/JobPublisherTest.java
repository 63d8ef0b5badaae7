package io.jsalt.master.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Publications from many threads at once, over a real publish port. */
class JobPublisherTest {

    @Test
    void serialsReachTheSubscriberInOrderWhenManyThreadsPublish() throws Exception {
        KeyPair master = TestKeys.master();
        SessionKey session = new SessionKey();
        List<Long> serials = new CopyOnWriteArrayList<>();
        List<Object> jids = new CopyOnWriteArrayList<>();
        try (Transport transport = Transport.create()) {
            PublishServer server = transport.bindPublisher("127.0.0.1", 0);
            Subscription sub = transport.subscribe("127.0.0.1", server.port(), List.of(new byte[0]), frame -> {
                var load = Publication.decode(frame, session.crypticle(), master.getPublic(), true);
                serials.add(((Number) load.get("serial")).longValue());
                jids.add(load.get("jid"));
            });
            try {
                JobPublisher publisher = new JobPublisher(server, session, master.getPrivate(), false);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
                    publisher.publish(new PublishLoad("test.ping", List.of(), "*", "20260101000000000000", "", "glob", "root"),
                            List.of());
                    return !serials.isEmpty();
                });
                int threads = 4;
                int each = 50;
                CountDownLatch go = new CountDownLatch(1);
                List<Thread> publishers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Thread thread = new Thread(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        for (int i = 0; i < each; i++) {
                            publisher.publish(new PublishLoad("test.ping", List.of(), "*", "20260101000000000001", "", "glob",
                                    "root"), List.of());
                        }
                    });
                    thread.start();
                    publishers.add(thread);
                }
                go.countDown();
                for (Thread thread : publishers) {
                    thread.join();
                }

                // counted by jid: warm-up publications still in flight when the first one arrived come in too
                String concurrent = "20260101000000000001";
                await().atMost(Duration.ofSeconds(20)).until(() -> jids.stream().filter(concurrent::equals).count() == threads * each);
                assertThat(serials).isSorted().doesNotHaveDuplicates();
            } finally {
                sub.close();
                server.close();
            }
        }
    }
}
