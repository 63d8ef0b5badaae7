package io.jsalt.transport.message;

import io.jsalt.transport.codec.Wire;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's result from a minion: {@code {"cmd": "_return", "id", "jid", "fun", "fun_args", "return",
 * "retcode", "success"}}, then {@code out} when the function names an outputter (Salt's minion adds it
 * last, e.g. {@code highstate} for state.apply), plus {@code sig}, Salt's minion_sign_messages: PKCS1v15-SHA1
 * with the minion key over the load packed with use_bin_type=True (salt.serializers.msgpack), before
 * {@code sig} and the request {@code nonce} are added.
 *
 * @param out the outputter the return asks for, or null
 */
public record ReturnLoad(String id, String jid, String fun, List<Object> funArgs, Object ret, int retcode, boolean success,
        String out) {
    public static final String CMD = "_return";

    /** A return that names no outputter. */
    public ReturnLoad(String id, String jid, String fun, List<Object> funArgs, Object ret, int retcode, boolean success) {
        this(id, jid, fun, funArgs, ret, retcode, success, null);
    }

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmd", CMD);
        m.put("id", id);
        m.put("success", success);
        m.put("return", ret);
        m.put("retcode", retcode);
        m.put("jid", jid);
        m.put("fun", fun);
        m.put("fun_args", funArgs);
        if (out != null) {
            m.put("out", out);
        }
        return m;
    }

    /** The load with its {@code sig}. */
    public Map<String, Object> toSignedLoad(PrivateKey minionKey) {
        return MinionSignature.sign(toLoad(), minionKey);
    }

    public static ReturnLoad fromLoad(Map<String, Object> m) {
        Object retcode = m.get("retcode");
        int code = retcode instanceof Number n ? n.intValue() : 0;
        return new ReturnLoad(MinionId.require(Wire.string(m, "id")), Wire.string(m, "jid"), Wire.optString(m, "fun", ""),
                Wire.optList(m, "fun_args"), m.get("return"), code, Wire.bool(m, "success", code == 0),
                m.get("out") instanceof String out ? out : null);
    }

    /**
     * Checks {@code sig} over the rest of the load (already stripped of its request nonce). Returns
     * false when it is absent or does not verify with {@code minionKey}.
     */
    public static boolean signatureValid(Map<String, Object> load, PublicKey minionKey) {
        return MinionSignature.valid(load, minionKey);
    }
}
