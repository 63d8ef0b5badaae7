package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A client's request to publish a job (clear, on the request port): {@code {"cmd": "publish", "tgt",
 * "fun", "arg", "tgt_type", "ret", "jid", "user", "key", "kwargs"}}. {@code key} is the content of the
 * master's local client key file, which only the master's user can read.
 */
public record PublishRequest(Object tgt, String fun, List<Object> arg, String tgtType, String user, String key, Map<String, Object> kwargs) {
    public static final String CMD = "publish";

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmd", CMD);
        m.put("tgt", tgt);
        m.put("fun", fun);
        m.put("arg", arg);
        m.put("tgt_type", tgtType);
        m.put("ret", "");
        m.put("jid", "");
        m.put("user", user);
        m.put("key", key);
        m.put("kwargs", kwargs);
        return m;
    }

    public static PublishRequest fromLoad(Map<String, Object> m) {
        Object tgt = m.get("tgt");
        if (!(tgt instanceof String) && !(tgt instanceof List)) {
            throw new io.jsalt.transport.codec.WireException("field 'tgt': expected a string or a list");
        }
        Map<String, Object> kwargs = m.get("kwargs") == null ? Map.of() : Wire.map(m, "kwargs");
        return new PublishRequest(tgt, Wire.string(m, "fun"), Wire.optList(m, "arg"), Wire.optString(m, "tgt_type", "glob"),
                Wire.optString(m, "user", ""), Wire.optString(m, "key", ""), kwargs);
    }
}
