package io.jsalt.transport.message;

import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Salt's signed clear reply (v2 {@code _auth}): {@code {"enc": "clear", "load": msgpack(load),
 * "sig": PKCS1v15-SHA1(master key, those bytes)}}.
 */
public final class SignedClear {
    private SignedClear() {}

    public static byte[] seal(Map<String, Object> load, PrivateKey signer) {
        byte[] packed = SaltPack.pack(load);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enc", "clear");
        m.put("load", packed);
        m.put("sig", Rsa.sign(signer, packed));
        return SaltPack.pack(m);
    }

    /** The signed load, after checking the signature against the master's key. */
    public static Map<String, Object> open(byte[] frame, PublicKey master) {
        Map<String, Object> m = Wire.asMap(SaltPack.unpack(frame));
        byte[] packed = Wire.bytes(m, "load");
        if (!Rsa.verify(master, packed, Wire.bytes(m, "sig"))) {
            throw new WireException("bad signature on the master's reply");
        }
        return Wire.asMap(SaltPack.unpack(packed));
    }

    /** The load without checking the signature: only to learn the master's key on first contact. */
    public static Map<String, Object> peek(byte[] frame) {
        Map<String, Object> m = Wire.asMap(SaltPack.unpack(frame));
        return Wire.asMap(SaltPack.unpack(Wire.bytes(m, "load")));
    }
}
