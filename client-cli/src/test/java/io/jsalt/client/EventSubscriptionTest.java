package io.jsalt.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jsalt.cli.testing.InProcessCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventSubscriptionTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    private InProcessCluster cluster;

    @BeforeEach
    void startMaster() throws IOException {
        cluster = new InProcessCluster(tmp).startMaster();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Path sockDir() {
        return cluster.masterConfig().sockDir();
    }

    @Test
    void deliversEveryMatchingEventFiredAfterSubscribeReturnsInOrder() throws IOException {
        List<Event> got = new CopyOnWriteArrayList<>();
        try (EventSubscription s = EventSubscription.subscribe(sockDir(), TagPattern.glob("salt/job/*/ret/*"), got::add)) {
            cluster.master().events().fire("salt/job/1/new", Map.of("n", 0));
            for (int i = 1; i <= 50; i++) {
                cluster.master().events().fire("salt/job/" + i + "/ret/web-01", Map.of("n", i));
            }
            await().atMost(WAIT).until(() -> got.size() == 50);
            assertThat(s.isOpen()).isTrue();
        }
        assertThat(got).extracting(e -> e.data().get("n")).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 50).boxed().toList());
        assertThat(got.get(0).tag()).isEqualTo("salt/job/1/ret/web-01");
        assertThat(got.get(0).data()).containsKey("_stamp");
    }

    @Test
    void closeEndsTheSubscriptionNormallyAndNothingArrivesAfterIt() throws IOException {
        List<Event> got = new CopyOnWriteArrayList<>();
        List<Event> witnessed = new CopyOnWriteArrayList<>();
        EventSubscription s = EventSubscription.subscribe(sockDir(), TagPattern.any(), got::add);
        try (EventSubscription witness = EventSubscription.subscribe(sockDir(), TagPattern.prefix("after/"), witnessed::add)) {
            s.close();
            cluster.master().events().fire("after/close", Map.of());

            await().atMost(WAIT).until(() -> !witnessed.isEmpty());
        }
        assertThat(s.done()).isCompleted();
        assertThat(s.isOpen()).isFalse();
        assertThat(got).noneMatch(e -> e.tag().equals("after/close"));
    }

    @Test
    void aListenerThatThrowsEndsItsSubscriptionWithThatError() throws IOException {
        EventSubscription s = EventSubscription.subscribe(sockDir(), TagPattern.prefix("boom"), e -> {
            throw new IllegalStateException("listener failed on " + e.tag());
        });

        cluster.master().events().fire("boom/1", Map.of());

        assertThatThrownBy(() -> s.done().join()).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("listener failed on boom/1");
        assertThat(s.isOpen()).isFalse();
    }

    @Test
    void theMasterGoingAwayEndsTheSubscriptionExceptionally() throws IOException {
        EventSubscription s = EventSubscription.subscribe(sockDir(), TagPattern.any(), e -> { });

        cluster.close();

        assertThatThrownBy(() -> s.done().join()).hasCauseInstanceOf(IOException.class);
        s.close();
    }

    @Test
    void subscribingWithoutARunningMasterSaysWhere() {
        cluster.close();

        assertThatThrownBy(() -> EventSubscription.subscribe(sockDir(), TagPattern.any(), e -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("cannot read the master's event bus")
                .hasMessageContaining(sockDir().toString());
    }
}
