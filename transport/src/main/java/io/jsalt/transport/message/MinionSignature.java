package io.jsalt.transport.message;

import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A minion's signature over a request load, as Salt's minion_sign_messages does for {@code _return}:
 * {@code sig} is PKCS1v15-SHA1 with the minion key over the load packed with use_bin_type=True, taken
 * before {@code sig} and the request {@code nonce} are added. jsalt minions sign their {@code _pillar}
 * load the same way, so the master can tell grains a minion vouched for from grains anyone with the
 * session key could have sent under its id.
 */
public final class MinionSignature {
    public static final String FIELD = "sig";

    private MinionSignature() {
    }

    /** A copy of the load with its {@code sig}. */
    public static Map<String, Object> sign(Map<String, Object> load, PrivateKey minionKey) {
        Map<String, Object> signed = new LinkedHashMap<>(load);
        signed.remove(FIELD);
        byte[] sig = Rsa.sign(minionKey, SaltPack.packBinType(signed));
        signed.put(FIELD, sig);
        return signed;
    }

    /**
     * Checks {@code sig} over the rest of the load (already stripped of its request nonce). False when it
     * is absent or does not verify with {@code minionKey}.
     */
    public static boolean valid(Map<String, Object> load, PublicKey minionKey) {
        Object sig = load.get(FIELD);
        if (sig == null) {
            return false;
        }
        Map<String, Object> unsigned = new LinkedHashMap<>(load);
        unsigned.remove(FIELD);
        return Rsa.verify(minionKey, SaltPack.packBinType(unsigned), Wire.asBytes(sig));
    }
}
