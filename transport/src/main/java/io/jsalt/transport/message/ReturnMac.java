package io.jsalt.transport.message;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * jsalt's return MAC: a secret of one minion's sign-in binds its returns to it for the price of an HMAC, where
 * Salt's {@code minion_sign_messages} costs an RSA-2048 signature per return (10 ms on a minion's C1 JVM).
 *
 * <p>A jsalt minion asks for it in its {@code _auth} load ({@value #ASK}); a jsalt master then adds
 * {@value #KEY_FIELD} to the (signed) sign-in reply: the 32-byte secret, OAEP-encrypted to the accepted key of
 * that minion, as Salt sends the session key. Only the holder of that minion's private key can read it: another
 * minion (which holds the session key too), or anyone who asks to sign in under that id with its public key,
 * gets only the ciphertext. A salt-master ignores the request field and sends no secret; a salt-minion never asks
 * and gets Salt's reply unchanged. The minion then puts {@value #FIELD} into each return instead of {@code sig}:
 * HMAC-SHA256 with the secret over a label, the return's {@code id} and {@code jid}, and the load packed as
 * {@link MinionSignature} packs it (use_bin_type, without {@code sig}, {@value #FIELD} and the request nonce).
 * Immutable; the secret never leaves this object but through {@link #sealedFor} and {@link SignInBlock}.
 */
public final class ReturnMac {
    /** In a minion's {@code _auth} load: it can MAC its returns (a salt-master ignores the key). */
    public static final String ASK = "jsalt_return_mac";
    /** The one algorithm so far, the value of {@link #ASK}. */
    public static final String ALGORITHM = "hmac-sha256";
    /** In the master's sign-in reply: the secret, OAEP-encrypted to the minion's key. */
    public static final String KEY_FIELD = "jsalt_return_key";
    /** In a return: the MAC, as base64 text (as a jsalt minion's {@code sig} is). */
    public static final String FIELD = "jsalt_mac";
    /** Bytes of the secret. */
    public static final int SECRET_BYTES = 32;
    private static final byte[] LABEL = "jsalt return mac v1".getBytes(StandardCharsets.US_ASCII);
    /** Per thread (a {@link Mac} is not thread-safe): {@link #mac} initialises it with its secret on every call. */
    private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    });

    private final SecretKeySpec secret;

    public ReturnMac(byte[] secret) {
        if (secret == null || secret.length != SECRET_BYTES) {
            throw new CryptoException("a return MAC secret is " + SECRET_BYTES + " bytes");
        }
        this.secret = new SecretKeySpec(secret, "HmacSHA256");
    }

    /** The secret OAEP-encrypted to {@code minionKey}, for the sign-in reply. */
    public byte[] sealedFor(PublicKey minionKey) {
        return Rsa.oaepEncrypt(minionKey, secret.getEncoded());
    }

    /** A copy of the secret, for {@link SignInBlock} only (the caller wipes it). */
    byte[] secretBytes() {
        return secret.getEncoded();
    }

    /**
     * The secret a jsalt master put into its sign-in reply ({@code signedReply}, already checked against the
     * master's key), opened with the minion's key; empty when the reply carries none (a salt-master's).
     *
     * @throws CryptoException when it is there but does not open to a secret with this key
     */
    public static Optional<ReturnMac> fromSignInReply(Map<String, Object> signedReply, PrivateKey minionKey) {
        if (signedReply.get(KEY_FIELD) == null) {
            return Optional.empty();
        }
        return Optional.of(new ReturnMac(Rsa.oaepDecrypt(minionKey, Wire.bytes(signedReply, KEY_FIELD))));
    }

    /** True when a minion's {@code _auth} load asks for a secret this code can serve. */
    public static boolean asked(Map<String, Object> authLoad) {
        return ALGORITHM.equals(authLoad.get(ASK));
    }

    /** True when a return load carries a MAC (whether it verifies or not). */
    public static boolean carriedBy(Map<String, Object> load) {
        return load.containsKey(FIELD);
    }

    /** A copy of the return load with its MAC, in place of any {@code sig} it had. */
    public Map<String, Object> seal(Map<String, Object> load) {
        Map<String, Object> sealed = new LinkedHashMap<>(load);
        sealed.remove(MinionSignature.FIELD);
        sealed.remove(FIELD);
        sealed.put(FIELD, Base64.getEncoder().encodeToString(mac(sealed)));
        return sealed;
    }

    /** True when the load's MAC is this secret's over the rest of it (stripped of its request nonce). */
    public boolean valid(Map<String, Object> load) {
        if (!(load.get(FIELD) instanceof String text) || load.containsKey(MinionSignature.FIELD)) {
            return false;
        }
        byte[] presented;
        try {
            presented = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        Map<String, Object> unsealed = new LinkedHashMap<>(load);
        unsealed.remove(FIELD);
        return MessageDigest.isEqual(mac(unsealed), presented);
    }

    private byte[] mac(Map<String, Object> unsealed) {
        try {
            Mac hmac = HMAC.get();
            hmac.init(secret);
            hmac.update(LABEL);
            field(hmac, unsealed.get("id"));
            field(hmac, unsealed.get("jid"));
            hmac.update(SaltPack.packBinType(unsealed));
            return hmac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    }

    /** A length-prefixed field, so no two (id, jid) pairs feed the same bytes. */
    private static void field(Mac hmac, Object value) {
        byte[] bytes = String.valueOf(value).getBytes(StandardCharsets.UTF_8);
        int n = bytes.length;
        hmac.update((byte) (n >>> 24));
        hmac.update((byte) (n >>> 16));
        hmac.update((byte) (n >>> 8));
        hmac.update((byte) n);
        hmac.update(bytes);
    }

    @Override
    public String toString() {
        return "ReturnMac[" + ALGORITHM + "]"; // never the secret
    }
}
