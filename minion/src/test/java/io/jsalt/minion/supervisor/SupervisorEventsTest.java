package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.transport.message.MinionEvent;
import io.jsalt.transport.message.RequestStamp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each state change of a real process becomes a signed-in minion event with the supervisor tag and fields. */
class SupervisorEventsTest {
    @TempDir
    Path dir;
    private final List<Map<String, Object>> sent = Collections.synchronizedList(new ArrayList<>());
    private SupervisorEvents events;
    private Supervisor supervisor;

    @AfterEach
    void stop() {
        if (supervisor != null) {
            supervisor.close();
        }
        if (events != null) {
            events.close();
        }
    }

    @Test
    void everyStateChangeIsAMinionEventTaggedWithTheMinionProcessAndState() {
        byte[] tok = {1, 2, 3};
        events = new SupervisorEvents("web1", () -> tok, sent::add);
        supervisor = new Supervisor(new ProgramDefinitions(Map.of("app", Map.of("command", "sleep 1000", "startsecs", "0")),
                dir.resolve("minion"), dir.resolve("supervisor.d"), SupervisorHarness.parser(dir.resolve("log"))), events, "t");
        supervisor.start();
        supervisor.stopProcesses("app");

        await().atMost(Duration.ofSeconds(30)).until(() -> sent.size() == 4);
        List<String> tags;
        synchronized (sent) {
            tags = sent.stream().map(load -> MinionEvent.fromLoad(load).tag()).toList();
        }
        assertThat(tags).containsExactly("jsalt/supervisor/web1/app/STARTING", "jsalt/supervisor/web1/app/RUNNING",
                "jsalt/supervisor/web1/app/STOPPING", "jsalt/supervisor/web1/app/STOPPED");
        Map<String, Object> running = sent.get(1);
        assertThat(running).containsEntry("cmd", "_minion_event").containsEntry("id", "web1").containsEntry("tok", tok);
        assertThat(RequestStamp.of(running)).isNotNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) running.get("data");
        assertThat(data).containsEntry("name", "app").containsEntry("state", "RUNNING").containsEntry("statecode", 20)
                .containsEntry("restarts", 0).containsKeys("pid", "exitstatus", "since", "description");
        assertThat((Long) data.get("pid")).isPositive();
        assertThat(((Map<?, ?>) sent.get(3).get("data")).get("exitstatus")).isEqualTo(143);
    }

    @Test
    void aMasterThatDoesNotAnswerCostsTheEventNotTheSupervisor() {
        events = new SupervisorEvents("web1", () -> new byte[] {1}, load -> {
            throw new IllegalStateException("not signed in");
        });
        supervisor = new Supervisor(new ProgramDefinitions(Map.of("app", Map.of("command", "sleep 1000", "startsecs", "0")),
                dir.resolve("minion"), dir.resolve("supervisor.d"), SupervisorHarness.parser(dir.resolve("log"))), events, "t");
        supervisor.start();

        assertThat(supervisor.stopProcesses("app")).containsExactly("app: stopped");
        assertThat(supervisor.startProcesses("app")).containsExactly("app: started");
    }
}
