package io.jsalt.cli.run;

import io.jsalt.transport.codec.Wire;
import java.util.Map;

/** The master's answer to a {@code runner} command: {@code {"jid", "tag", "fun", "return", "success"}}. */
public record RunnerReply(String jid, String fun, Object ret, boolean success) {

    /** @throws io.jsalt.transport.codec.WireException when a field is missing or of the wrong type */
    public static RunnerReply fromLoad(Map<String, Object> load) {
        return new RunnerReply(Wire.optString(load, "jid", ""), Wire.optString(load, "fun", ""), load.get("return"),
                Wire.bool(load, "success", true));
    }
}
