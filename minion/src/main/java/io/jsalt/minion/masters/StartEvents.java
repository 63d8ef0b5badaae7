package io.jsalt.minion.masters;

import io.jsalt.transport.message.MinionEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two events a minion announces its start with after a sign-in, {@code minion_start} and
 * {@code salt/minion/<id>/start}, as the {@code _minion_event} loads to send. To a salt-master: one request
 * each, as a salt-minion sends them (a salt-master fires a single event's whole load, a batched one's data
 * only, and Salt's listeners expect the former). To a jsalt master: both in one request, in Salt's batched
 * form ({@code events}), which a jsalt master fires exactly as the two single ones; a sign-in storm then costs
 * the master one request less per minion.
 */
public final class StartEvents {
    private StartEvents() {
    }

    /**
     * @param tok     X9.31(minion key, "salt"), the sender's proof of its id
     * @param batched true when the master is a jsalt master (its sign-in reply carried a return secret)
     */
    public static List<Map<String, Object>> loads(String id, byte[] tok, String text, boolean batched) {
        List<String> tags = List.of("minion_start", "salt/minion/" + id + "/start");
        if (!batched) {
            return tags.stream().map(tag -> new MinionEvent(id, tok, tag, text).toLoad()).toList();
        }
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", id);
        load.put("cmd", MinionEvent.CMD);
        load.put("tok", tok);
        load.put("events", tags.stream().map(tag -> {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("tag", tag);
            event.put("data", text);
            return event;
        }).toList());
        return List.of(load);
    }
}
