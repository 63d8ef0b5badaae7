package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.event.EventFrame;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * presence_events across processes: a jsalt-master and two jsalt-minions (no zmq_filtering, so only the
 * per-minion topic every jsalt minion subscribes to makes them visible), read on the master's event bus.
 */
class PresenceEventsEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(40);

    @Test
    void bothMinionsArePresentAndAKilledOneIsReportedLost(@TempDir Path tmp) throws Exception {
        try (Cluster cluster = new Cluster(tmp)) {
            cluster.startMaster("auto_accept: True", "presence_events: True", "loop_interval: 1");
            try (EventTap bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10))) {
                cluster.startMinion("alpha");
                cluster.startMinion("beta");
                await().atMost(WAIT).until(() -> lastPresent(bus).equals(List.of("alpha", "beta")));

                // SIGKILL: no goodbye from the minion, the kernel closes its connection
                cluster.minion("beta").destroyForcibly().waitFor(15, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(15)).until(() -> !bus.matching(lost("beta")).isEmpty());
                EventFrame change = bus.matching(lost("beta")).get(0).event();
                assertThat(change.data().get("lost")).isEqualTo(List.of("beta"));
                assertThat(change.data().get("new")).isEqualTo(List.of());
                await().atMost(Duration.ofSeconds(10)).until(() -> lastPresent(bus).equals(List.of("alpha")));
            }
        }
    }

    private static java.util.function.Predicate<EventFrame> lost(String id) {
        return e -> e.tag().equals("salt/presence/change") && List.of(id).equals(e.data().get("lost"));
    }

    private static List<?> lastPresent(EventTap bus) {
        List<EventTap.Seen> present = bus.matching(e -> e.tag().equals("salt/presence/present"));
        return present.isEmpty() ? List.of() : (List<?>) present.get(present.size() - 1).event().data().get("present");
    }
}
