package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A minion's sign-in load: {@code {"cmd": "_auth", "id", "nonce", "pub", "token"?}}. {@code token} is
 * OAEP(master key, random string), present once the minion has the master key cached.
 */
public record AuthRequest(String id, String nonce, String pub, byte[] token) {
    public static final String CMD = "_auth";

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmd", CMD);
        m.put("id", id);
        m.put("nonce", nonce);
        m.put("pub", pub);
        if (token != null) {
            m.put("token", token);
        }
        return m;
    }

    public static AuthRequest fromLoad(Map<String, Object> load) {
        byte[] token = load.get("token") == null ? null : Wire.bytes(load, "token");
        return new AuthRequest(Wire.string(load, "id"), Wire.optString(load, "nonce", null), Wire.string(load, "pub"), token);
    }
}
