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

        await().atMost(Duration.ofSeconds(30)).until(() -> events().size() == 4);
        List<Map<String, Object>> events = events();
        assertThat(events).extracting(e -> e.get("tag")).containsExactly("jsalt/supervisor/web1/app/STARTING",
                "jsalt/supervisor/web1/app/RUNNING", "jsalt/supervisor/web1/app/STOPPING", "jsalt/supervisor/web1/app/STOPPED");
        synchronized (sent) {
            for (Map<String, Object> load : sent) {
                assertThat(load).containsEntry("cmd", "_minion_event").containsEntry("id", "web1").containsEntry("tok", tok);
                assertThat(RequestStamp.of(load)).isNotNull();
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) events.get(1).get("data");
        assertThat(data).containsEntry("name", "app").containsEntry("state", "RUNNING").containsEntry("statecode", 20)
                .containsEntry("restarts", 0).containsKeys("pid", "exitstatus", "since", "description");
        assertThat((Long) data.get("pid")).isPositive();
        assertThat(((Map<?, ?>) events.get(3).get("data")).get("exitstatus")).isEqualTo(143);
    }

    /** Every event sent, in order: a load's own tag and data, or each of its batch's {@code events}. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> events() {
        List<Map<String, Object>> out = new ArrayList<>();
        synchronized (sent) {
            for (Map<String, Object> load : sent) {
                if (load.get("events") instanceof List<?> batch) {
                    batch.forEach(e -> out.add((Map<String, Object>) e));
                } else {
                    MinionEvent e = MinionEvent.fromLoad(load);
                    out.add(Map.of("tag", e.tag(), "data", e.data()));
                }
            }
        }
        return out;
    }

    @Test
    void changesThatWaitTogetherGoInOneRequestInOrder() {
        java.util.concurrent.CountDownLatch master = new java.util.concurrent.CountDownLatch(1);
        events = new SupervisorEvents("web1", () -> new byte[] {1}, load -> {
            sent.add(load);
            try {
                master.await(); // the master is slow to answer the first request: the next changes wait together
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ProcessSnapshot one = new ProcessSnapshot("app", "app", ProcessState.STARTING, 0, null, java.time.Instant.now(),
                null, 0, "");
        events.accept(one);
        await().atMost(Duration.ofSeconds(30)).until(() -> sent.size() == 1);
        events.accept(new ProcessSnapshot("app", "app", ProcessState.RUNNING, 42, null, java.time.Instant.now(),
                java.time.Instant.now(), 0, ""));
        events.removed("old", "old");
        events.present(List.of("app"));
        master.countDown();

        await().atMost(Duration.ofSeconds(30)).until(() -> sent.size() == 2);
        assertThat(sent.get(1).get("events")).asList().hasSize(3);
        assertThat(sent.get(1)).doesNotContainKeys("tag", "data");
        assertThat(events()).extracting(e -> e.get("tag")).containsExactly("jsalt/supervisor/web1/app/STARTING",
                "jsalt/supervisor/web1/app/RUNNING", "jsalt/supervisor/web1/old/REMOVED", "jsalt/supervisor/web1/processes");
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
