package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job as published to minions: {@code {"fun", "arg", "tgt", "jid", "ret", "tgt_type", "user"}}. The
 * publisher adds {@code serial}; kwargs ride inside {@code arg} as a map with {@code "__kwarg__": true}.
 */
public record PublishLoad(String fun, List<Object> arg, Object tgt, String jid, String ret, String tgtType, String user) {

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fun", fun);
        m.put("arg", arg);
        m.put("tgt", tgt);
        m.put("jid", jid);
        m.put("ret", ret);
        m.put("tgt_type", tgtType);
        m.put("user", user);
        return m;
    }

    public static PublishLoad fromLoad(Map<String, Object> m) {
        Object tgt = m.get("tgt");
        if (!(tgt instanceof String) && !(tgt instanceof List)) {
            throw new io.jsalt.transport.codec.WireException("field 'tgt': expected a string or a list");
        }
        return new PublishLoad(Wire.string(m, "fun"), Wire.optList(m, "arg"), tgt, Wire.string(m, "jid"),
                Wire.optString(m, "ret", ""), Wire.optString(m, "tgt_type", "glob"), Wire.optString(m, "user", ""));
    }
}
