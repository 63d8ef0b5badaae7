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
 *
 * <p>A salt-minion 3006 signs the load in {@code _send_req_sync}/{@code _send_req_async}, then hands it to
 * its own event bus, whose {@code fire_event} adds {@code _stamp} to the same dict before its request
 * channel adds {@code nonce} and sends it: the signature covers neither (that is why a salt-master, which
 * re-packs the load with {@code _stamp}, cannot verify its own minions' signatures). A load whose
 * signature does not cover its {@code _stamp} is therefore checked again without it.
 */
public final class MinionSignature {
    public static final String FIELD = "sig";
    /** Added by a salt-minion's event bus after it signed the load. */
    static final String SALT_EVENT_STAMP = "_stamp";

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
        byte[] signature = Wire.asBytes(sig);
        Map<String, Object> unsigned = new LinkedHashMap<>(load);
        unsigned.remove(FIELD);
        if (Rsa.verify(minionKey, SaltPack.packBinType(unsigned), signature)) {
            return true;
        }
        return unsigned.remove(SALT_EVENT_STAMP) != null
                && Rsa.verify(minionKey, SaltPack.packBinType(unsigned), signature);
    }
}
