package io.jsalt.transport.message;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The publish-port frame: {@code {"enc": "aes", "load": Crypticle.dumps(load), "sig": PKCS1v15-SHA1(master
 * key, the encrypted load)}} (Salt 3006 signs publications by default: sign_pub_messages).
 */
public final class Publication {
    private Publication() {}

    public static byte[] encode(Crypticle crypticle, PrivateKey masterKey, Map<String, Object> load) {
        byte[] blob = crypticle.seal(SaltPack.pack(load), null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", "aes");
        m.put("load", blob);
        if (masterKey != null) {
            m.put("sig", Rsa.sign(masterKey, blob));
        }
        return SaltPack.pack(m);
    }

    /**
     * Verifies and decrypts a publication. Throws WireException on a bad or (when required) missing
     * signature, CrypticleAuthException when the session key does not match.
     */
    public static Map<String, Object> decode(byte[] frame, Crypticle crypticle, PublicKey masterKey, boolean requireSignature) {
        Map<String, Object> m = Wire.asMap(SaltPack.unpack(frame));
        if (!"aes".equals(m.get("enc"))) {
            throw new WireException("publication is not aes-encrypted");
        }
        byte[] blob = Wire.bytes(m, "load");
        Object sig = m.get("sig");
        if (sig == null && requireSignature) {
            throw new WireException("unsigned publication");
        }
        if (sig != null && !Rsa.verify(masterKey, blob, Wire.asBytes(sig))) {
            throw new WireException("bad signature on publication");
        }
        return Wire.asMap(SaltPack.unpack(crypticle.open(blob, null)));
    }
}
