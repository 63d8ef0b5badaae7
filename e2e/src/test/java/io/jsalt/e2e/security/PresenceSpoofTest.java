package io.jsalt.e2e.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.e2e.Cluster;
import io.jsalt.e2e.EventTap;
import io.jsalt.transport.Subscription;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Low finding: anyone may subscribe to the publish port, so a subscription to a stopped minion's own topic
 * made it look present. Presence now needs a sign-in since the minion was last seen gone.
 */
@Tag("security")
class PresenceSpoofTest {
    private static final Duration WAIT = Duration.ofSeconds(40);

    @Test
    void aStrangerSubscribingAStoppedMinionsTopicDoesNotMakeItPresent(@TempDir Path tmp) throws Exception {
        try (Cluster cluster = new Cluster(tmp); Transport transport = Transport.create()) {
            cluster.startMaster("auto_accept: True", "presence_events: True", "loop_interval: 1");
            try (EventTap bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(10))) {
                cluster.startMinion("beta");
                await().atMost(WAIT).until(() -> lastPresent(bus).equals(List.of("beta")));
                cluster.minion("beta").destroyForcibly().waitFor(15, TimeUnit.SECONDS);
                await().atMost(WAIT).until(() -> lastPresent(bus).isEmpty());

                Subscription spoof = transport.subscribe("127.0.0.1", cluster.publishPort,
                        List.of(new byte[0], Topics.presenceOf("beta")), p -> { });
                assertThat(spoof.awaitConnected(Duration.ofSeconds(10))).isTrue();
                int roundsBefore = bus.matching(e -> e.tag().equals("salt/presence/present")).size();
                await().atMost(WAIT).until(() -> bus.matching(e -> e.tag().equals("salt/presence/present")).size() >= roundsBefore + 4);

                assertThat(bus.matching(e -> e.tag().equals("salt/presence/present")).subList(roundsBefore, roundsBefore + 4))
                        .allSatisfy(s -> assertThat((List<?>) s.event().data().get("present")).isEmpty());
                spoof.close();
            }
        }
    }

    private static List<?> lastPresent(EventTap bus) {
        List<EventTap.Seen> present = bus.matching(e -> e.tag().equals("salt/presence/present"));
        return present.isEmpty() ? List.of(0) : (List<?>) present.get(present.size() - 1).event().data().get("present");
    }
}
