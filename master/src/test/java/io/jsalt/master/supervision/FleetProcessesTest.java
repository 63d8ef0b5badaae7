package io.jsalt.master.supervision;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.event.EventFrame;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The master's table of supervised processes, kept from the minions' state events. */
class FleetProcessesTest {
    private static final Instant NOW = Instant.parse("2026-11-25T02:00:00Z");
    private final FleetProcesses fleet = new FleetProcesses(Clock.fixed(NOW, ZoneOffset.UTC));

    private static EventFrame change(String tagId, String dataId, String process, String state, long pid) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", process);
        data.put("group", process);
        data.put("state", state);
        data.put("pid", pid);
        data.put("exitstatus", null);
        data.put("since", 1_795_000_000.5);
        data.put("restarts", 2);
        data.put("description", "pid " + pid + ", uptime 0:00:01");
        data.put("id", dataId);
        return new EventFrame("jsalt/supervisor/" + tagId + "/" + process + "/" + state, data);
    }

    @Test
    void keepsTheLastStateOfEachProcessOfEachMinion() {
        fleet.onEvent(change("web1", "web1", "app", "STARTING", 10));
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.onEvent(change("web2", "web2", "app", "FATAL", 0));

        Map<String, Map<String, Object>> status = fleet.status(null, null, null);
        assertThat(status).containsOnlyKeys("web1", "web2");
        @SuppressWarnings("unchecked")
        Map<String, Object> app = (Map<String, Object>) status.get("web1").get("app");
        assertThat(app).containsEntry("state", "RUNNING").containsEntry("pid", 10L).containsEntry("restarts", 2)
                .containsEntry("since", 1_795_000_000.5).containsEntry("reported_seconds_ago", 0L);
        assertThat(fleet.status(null, null, "fatal")).containsOnlyKeys("web2");
        assertThat(fleet.status(Set.of("web2"), "app", null)).containsOnlyKeys("web2");
        assertThat(fleet.status(null, "other", null)).isEmpty();
    }

    @Test
    void ignoresAnEventWhoseTagNamesAnotherMinionThanItsId() {
        fleet.onEvent(change("web2", "web1", "app", "RUNNING", 10));
        fleet.onEvent(new EventFrame("jsalt/supervisor/web1/../x/RUNNING", Map.of("id", "web1")));
        fleet.onEvent(new EventFrame("jsalt/supervisor/web1/app/DANCING", Map.of("id", "web1")));

        assertThat(fleet.status(null, null, null)).isEmpty();
    }

    @Test
    void forgetsADeletedMinion() {
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.forget("web1");
        assertThat(fleet.status(null, null, null)).isEmpty();
    }

    @Test
    void dropsTheRowOfAProcessItsMinionNoLongerSupervises() {
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.onEvent(change("web1", "web1", "gone", "STOPPED", 0));
        fleet.onEvent(change("web2", "web2", "gone", "RUNNING", 12));

        fleet.onEvent(new EventFrame("jsalt/supervisor/web1/gone/REMOVED", Map.of("name", "gone", "id", "web1")));
        // another minion cannot drop web2's row
        fleet.onEvent(new EventFrame("jsalt/supervisor/web2/gone/REMOVED", Map.of("name", "gone", "id", "web1")));

        assertThat(fleet.status(null, null, null).get("web1")).containsOnlyKeys("app");
        assertThat(fleet.status(null, null, null).get("web2")).containsOnlyKeys("gone");
    }

    @Test
    void aMinionsListOfItsProcessesDropsTheRowsOfAnyOther() {
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.onEvent(change("web1", "web1", "old", "RUNNING", 11));
        fleet.onEvent(change("web2", "web2", "old", "RUNNING", 12));

        fleet.onEvent(new EventFrame("jsalt/supervisor/web1/processes", Map.of("processes", List.of("app"), "id", "web1")));
        fleet.onEvent(new EventFrame("jsalt/supervisor/web2/processes", Map.of("processes", List.of(), "id", "web1")));
        fleet.onEvent(new EventFrame("jsalt/supervisor/web2/processes", Map.of("processes", "not a list", "id", "web2")));

        assertThat(fleet.status(null, null, null).get("web1")).containsOnlyKeys("app");
        assertThat(fleet.status(null, null, null).get("web2")).as("only web2 speaks for web2").containsOnlyKeys("old");
    }

    @Test
    void printsOneLinePerProcess() {
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.onEvent(change("web2", "web2", "app", "FATAL", 0));

        String table = SupervisorRunner.table(fleet.status(null, null, null));
        assertThat(table.lines()).hasSize(3);
        assertThat(table.lines().toList().get(0)).startsWith("MINION").contains("PROCESS", "STATE");
        assertThat(table.lines().toList().get(1)).matches("web1 +app +RUNNING +pid 10, uptime 0:00:01 +0s ago");
        assertThat(table.lines().toList().get(2)).startsWith("web2").contains("FATAL");
    }

    @Test
    void marksTheRowsOfAMinionThatIsNotConnected() {
        fleet.onEvent(change("web1", "web1", "app", "RUNNING", 10));
        fleet.onEvent(change("web2", "web2", "app", "RUNNING", 11));
        Set<String> topics = Set.of(new String(io.jsalt.transport.message.Topics.presenceOf("web1"),
                java.nio.charset.StandardCharsets.ISO_8859_1));
        SupervisorRunner runner = new SupervisorRunner(fleet, null, () -> topics);

        Map<String, Map<String, Object>> status = runner.status("*", "glob", null, null);
        assertThat(((Map<?, ?>) status.get("web1").get("app")).get("minion_connected")).isEqualTo(true);
        assertThat(((Map<?, ?>) status.get("web2").get("app")).get("minion_connected")).isEqualTo(false);
        String table = SupervisorRunner.table(status);
        assertThat(table.lines().filter(l -> l.startsWith("web2"))).singleElement().asString().endsWith("(minion not connected: stale)");
        assertThat(table.lines().filter(l -> l.startsWith("web1"))).singleElement().asString().doesNotContain("stale");
    }
}
