package io.jsalt.minion.channel;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Map;

/**
 * Opens a reply the master encrypted for this minion alone (Salt's {@code _encrypt_private}, used for
 * {@code _pillar}): {@code {"key": OAEP(minion pub, k), "pillar": Crypticle(k).dumps({"data", "sig"})}} where
 * {@code data} is msgpack of {@code {"key", "pillar", "nonce"}} signed by the master. Checking the signature,
 * the key echo and the nonce tells this minion the reply is the master's answer to its own request.
 */
public final class PrivateReply {
    private PrivateReply() {
    }

    /**
     * The value under {@code dictKey} ("pillar") of a private reply.
     *
     * @throws CryptoException when it does not decrypt or its signature or nonce is wrong
     * @throws WireException when it is not shaped like a private reply
     */
    public static Object open(Object reply, String dictKey, String nonce, PrivateKey minionKey, PublicKey masterKey) {
        Map<String, Object> outer = Wire.asMap(reply);
        byte[] sealedKey = Wire.bytes(outer, "key");
        String oneOff = new String(Rsa.oaepDecrypt(minionKey, sealedKey), StandardCharsets.US_ASCII);
        Map<String, Object> envelope = Wire.asMap(SaltPack.unpack(new Crypticle(oneOff).open(Wire.bytes(outer, dictKey), null)));
        byte[] data = Wire.bytes(envelope, "data");
        if (!Rsa.verify(masterKey, data, Wire.bytes(envelope, "sig"))) {
            throw new CryptoException("the private reply is not signed by the master's key");
        }
        Map<String, Object> signed = Wire.asMap(SaltPack.unpack(data));
        // Salt checks both: a reply replayed from another request carries another key and nonce
        if (!MessageDigest.isEqual(sealedKey, Wire.bytes(signed, "key"))) {
            throw new CryptoException("the private reply's signed key does not match its key");
        }
        if (!nonce.equals(Wire.optString(signed, "nonce", ""))) {
            throw new CryptoException("the private reply answers another request (nonce mismatch)");
        }
        return signed.get(dictKey);
    }
}
