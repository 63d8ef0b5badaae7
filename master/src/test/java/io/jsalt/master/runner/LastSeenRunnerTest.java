package io.jsalt.master.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.events.EventBus;
import io.jsalt.master.session.LastSeen;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** manage.last_seen answers when the master last heard from every minion, or from the subset asked. */
class LastSeenRunnerTest {
    @Test
    void answersEveryMinionSeenOrTheSubsetAsked() {
        EventBus bus = new EventBus();
        LastSeen seen = new LastSeen(Clock.fixed(Instant.ofEpochMilli(1_795_573_062_500L), ZoneOffset.UTC));
        bus.addListener(seen);
        bus.fire("salt/minion/web-01/start", Map.of("id", "web-01"));
        bus.fire("salt/minion/web-02/start", Map.of("id", "web-02"));
        RunnerFunction lastSeen = new LastSeenRunner(seen).functions().get(0);

        assertThat(lastSeen.name()).isEqualTo("manage.last_seen");
        assertThat(lastSeen.body().call(ArgumentBinder.bind(lastSeen.signature(), List.of(), Map.of())))
                .isEqualTo(Map.of("web-01", 1_795_573_062.5, "web-02", 1_795_573_062.5));
        assertThat(lastSeen.body().call(ArgumentBinder.bind(lastSeen.signature(), List.of(), Map.of("subset", "web-02,web-09"))))
                .isEqualTo(Map.of("web-02", 1_795_573_062.5));
    }
}
