package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An event a minion sends for the master's bus: {@code {"cmd": "_minion_event", "id", "tok", "pretag",
 * "data", "tag"}}. {@code tok} is X9.31(minion key, "salt"): proof that the sender holds the id's key.
 */
public record MinionEvent(String id, byte[] tok, String tag, Object data) {
    public static final String CMD = "_minion_event";

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("cmd", CMD);
        m.put("pretag", null);
        m.put("tok", tok);
        m.put("data", data);
        m.put("tag", tag);
        return m;
    }

    public static MinionEvent fromLoad(Map<String, Object> m) {
        return new MinionEvent(MinionId.require(Wire.string(m, "id")), Wire.bytes(m, "tok"), Wire.optString(m, "tag", ""), m.get("data"));
    }
}
