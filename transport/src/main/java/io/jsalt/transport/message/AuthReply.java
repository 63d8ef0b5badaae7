package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The master's answer to {@code _auth}, before it is signed into a {@link SignedClear}. Accepted:
 * {@code {"enc": "pub", "pub_key", "publish_port", "aes", "sig", "token"?, "nonce"}}; otherwise
 * {@code {"ret": true|false|"full", "nonce"}} where true means "pending: retry later".
 */
public record AuthReply(Outcome outcome, String pubKey, int publishPort, byte[] aes, byte[] sig, byte[] token, String nonce) {
    public enum Outcome { ACCEPTED, PENDING, REJECTED, FULL }

    public static AuthReply accepted(String pubKey, int publishPort, byte[] aes, byte[] sig, byte[] token, String nonce) {
        return new AuthReply(Outcome.ACCEPTED, pubKey, publishPort, aes, sig, token, nonce);
    }

    public static AuthReply of(Outcome outcome, String nonce) {
        if (outcome == Outcome.ACCEPTED) {
            throw new IllegalArgumentException("an accepted reply carries keys: use accepted()");
        }
        return new AuthReply(outcome, null, 0, null, null, null, nonce);
    }

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        switch (outcome) {
            case ACCEPTED -> {
                m.put("enc", "pub");
                m.put("pub_key", pubKey);
                m.put("publish_port", publishPort);
                m.put("aes", aes);
                m.put("sig", sig);
                if (token != null) {
                    m.put("token", token);
                }
            }
            case PENDING -> m.put("ret", true);
            case REJECTED -> m.put("ret", false);
            case FULL -> m.put("ret", "full");
        }
        if (nonce != null) {
            m.put("nonce", nonce);
        }
        return m;
    }

    public static AuthReply fromLoad(Map<String, Object> m) {
        String nonce = Wire.optString(m, "nonce", null);
        if ("pub".equals(m.get("enc"))) {
            byte[] token = m.get("token") == null ? null : Wire.bytes(m, "token");
            return accepted(Wire.string(m, "pub_key"), (int) Wire.longValue(m, "publish_port"),
                    Wire.bytes(m, "aes"), Wire.bytes(m, "sig"), token, nonce);
        }
        Object ret = m.get("ret");
        if (Boolean.TRUE.equals(ret)) {
            return of(Outcome.PENDING, nonce);
        }
        if (Boolean.FALSE.equals(ret)) {
            return of(Outcome.REJECTED, nonce);
        }
        if ("full".equals(ret)) {
            return of(Outcome.FULL, nonce);
        }
        throw new WireException("unrecognised auth reply");
    }
}
