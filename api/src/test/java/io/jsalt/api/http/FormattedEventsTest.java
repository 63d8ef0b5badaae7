package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.event.EventFrame;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.Test;

/** salt-api's {@code format_events} view (event_processor.SaltInfo), event by event. */
class FormattedEventsTest {
    private static final String JID = "20261128034512345678";
    private final FormattedEvents view = new FormattedEvents();

    @Test
    void aJobRunsUntilEveryMinionSucceeded() {
        List<String> started = view.process(new EventFrame("salt/job/" + JID + "/new", Map.of("jid", JID, "minions", List.of("a", "b"),
                "fun", "test.ping", "tgt", "*", "tgt_type", "glob", "_stamp", "2026-11-28T03:45:12.345678")));
        assertThat(job(started.get(0))).containsEntry("state", "running").containsEntry("fun", "test.ping")
                .containsEntry("start_time", "2026-11-28T03:45:12.345678");

        List<String> first = view.process(ret("a", true));
        assertThat(job(first.get(0))).containsEntry("state", "running");
        List<String> second = view.process(ret("b", true));
        Map<Object, Object> done = job(second.get(0));
        assertThat(done).containsEntry("state", "complete");
        assertThat(job(second.get(0), "b")).containsEntry("return", true).containsEntry("success", true);
    }

    @Test
    void keysGrainsAndPresenceKeepTheMinionList() {
        assertThat(minions(view.process(new EventFrame("salt/key", Map.of("act", "accept", "id", "a", "result", true)))))
                .containsExactly(Map.of("id", "a"));
        view.process(new EventFrame("salt/key", Map.of("act", "accept", "id", "b", "result", true)));
        List<String> grains = view.process(new EventFrame("salt/job/" + JID + "/ret/a", Map.of("fun", "grains.items",
                "return", Map.of("os", "Debian"), "retcode", 0, "success", true)));
        assertThat(grains).hasSize(2); // the job's view, then the minions'
        assertThat(minions(grains.subList(1, 2))).containsExactly(Map.of("id", "a", "grains", Map.of("os", "Debian")), Map.of("id", "b"));
        assertThat(minions(view.process(new EventFrame("salt/presence/present", Map.of("present", List.of("a"))))))
                .containsExactly(Map.of("id", "a", "grains", Map.of("os", "Debian")));
        assertThat(minions(view.process(new EventFrame("salt/key", Map.of("act", "delete", "id", "a", "result", true))))).isEmpty();
    }

    @Test
    void otherEventsAndEventsMissingAFieldGiveNothing() {
        assertThat(view.process(new EventFrame("salt/auth", Map.of("act", "pend", "id", "x")))).isEmpty();
        assertThat(view.process(new EventFrame("salt/job/" + JID + "/new", Map.of("fun", "test.ping")))).isEmpty();
        assertThat(view.process(new EventFrame("salt/job/" + JID + "/ret", Map.of("return", true)))).isEmpty();
        assertThat(view.process(new EventFrame("salt", Map.of()))).isEmpty();
        assertThat(view.process(new EventFrame("salt/key", Map.of("act", "accept")))).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> job(String message, String minion) {
        return (Map<Object, Object>) ((Map<?, ?>) job(message).get("minions")).get(minion);
    }

    private static EventFrame ret(String id, boolean success) {
        return new EventFrame("salt/job/" + JID + "/ret/" + id, Map.of("fun", "test.ping", "return", true, "retcode", 0, "success", success));
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> job(String message) {
        return (Map<Object, Object>) ((Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(message)).get("jobs")).get(JID);
    }

    private static List<Object> minions(List<String> messages) {
        assertThat(messages).hasSize(1);
        return List.of((Object[]) ((Map<?, ?>) new JSON().fromJSON(messages.get(0))).get("minions"));
    }
}
