package io.jsalt.transport.message;

import io.jsalt.crypto.Crypticle;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Encrypted requests and replies on the request port under the shared session key (Salt's
 * {@code crypted_transfer_decode_dictentry}). A request load carries a fresh {@code nonce}; the reply is
 * {@code Crypticle.dumps(result, nonce)} so the minion knows the answer is for this request.
 */
public final class SessionCipher {
    private final Crypticle crypticle;

    public SessionCipher(Crypticle crypticle) {
        this.crypticle = crypticle;
    }

    public Crypticle crypticle() {
        return crypticle;
    }

    public static String newNonce() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Adds {@code nonce} to a copy of the load and returns the whole request frame. */
    public byte[] encryptRequest(Map<String, Object> load, String nonce) {
        Map<String, Object> withNonce = new LinkedHashMap<>(load);
        withNonce.put("nonce", nonce);
        return RequestEnvelope.aes(crypticle.seal(SaltPack.pack(withNonce), null)).encode();
    }

    /** The decrypted load of an aes request. Throws CrypticleAuthException when the key does not match. */
    public Map<String, Object> decryptRequest(byte[] blob) {
        return Wire.asMap(SaltPack.unpack(crypticle.open(blob, null)));
    }

    public byte[] encryptReply(Object result, String nonce) {
        return SaltPack.pack(crypticle.seal(SaltPack.pack(result), nonce));
    }

    public Object decryptReply(byte[] frame, String nonce) {
        return SaltPack.unpack(crypticle.open(Wire.asBytes(SaltPack.unpack(frame)), nonce));
    }
}
