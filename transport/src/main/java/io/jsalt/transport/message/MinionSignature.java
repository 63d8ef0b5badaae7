package io.jsalt.transport.message;

import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minion's signature over a request load, as Salt's minion_sign_messages does for {@code _return}:
 * {@code sig} is PKCS1v15-SHA1 with the minion key over the load packed with use_bin_type=True, taken
 * before {@code sig} and the request {@code nonce} are added. jsalt minions sign their {@code _pillar}
 * load the same way, so the master can tell grains a minion vouched for from grains anyone with the
 * session key could have sent under its id.
 *
 * <p>A jsalt minion sends its signature as base64 text, a salt-minion as raw bytes; both are checked. The
 * text is for salt-masters: one fires the whole return load, {@code sig} included, on its event bus, and
 * raw signature bytes (not UTF-8) make Salt's own event tools fail on it ({@code salt-run state.event}
 * dies in {@code salt.utils.data.decode}). A salt-master cannot verify either form (below), and by default
 * takes the return all the same.
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

    /** A copy of the load with its {@code sig}, as base64 text. */
    public static Map<String, Object> sign(Map<String, Object> load, PrivateKey minionKey) {
        Map<String, Object> signed = new LinkedHashMap<>(load);
        signed.remove(FIELD);
        byte[] sig = Rsa.sign(minionKey, SaltPack.packBinType(signed));
        signed.put(FIELD, Base64.getEncoder().encodeToString(sig));
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
        List<byte[]> signatures = signatureBytes(sig);
        if (verifiesAny(minionKey, SaltPack.packBinType(unsigned), signatures)) {
            return true;
        }
        return unsigned.remove(SALT_EVENT_STAMP) != null && verifiesAny(minionKey, SaltPack.packBinType(unsigned), signatures);
    }

    /** The bytes {@code sig} may stand for: base64 text (a jsalt minion's), or the raw bytes (a salt-minion's). */
    private static List<byte[]> signatureBytes(Object sig) {
        List<byte[]> candidates = new ArrayList<>(2);
        if (sig instanceof String text) {
            try {
                candidates.add(Base64.getDecoder().decode(text));
            } catch (IllegalArgumentException notBase64) {
                // raw bytes that happened to be valid UTF-8 arrive as text: tried below
            }
            candidates.add(text.getBytes(StandardCharsets.UTF_8));
        } else {
            candidates.add(Wire.asBytes(sig));
        }
        return candidates;
    }

    private static boolean verifiesAny(PublicKey key, byte[] data, List<byte[]> signatures) {
        for (byte[] s : signatures) {
            if (Rsa.verify(key, data, s)) {
                return true;
            }
        }
        return false;
    }
}
