package io.jsalt.master.session;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.transport.message.ReturnMac;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The master's side of the return MAC ({@link ReturnMac}): the secret of each minion's sign-in, sent in the
 * sign-in reply to a jsalt minion that asks, and the check of the MAC its returns carry.
 *
 * <p>The secret is derived, not stored: HMAC-SHA256, under a key derived from the master's private key, over the
 * current session key, the minion id and the SHA-256 of the minion's accepted public key. So:
 * <ul>
 * <li>every sign-in of a minion under one session key gets the same secret, so a sign-in someone else asks for
 * under its id (anyone may send its public key) neither learns the secret (OAEP to that key) nor replaces the one
 * the minion holds;</li>
 * <li>it changes with the session key: a master restart, and the rotation that deleting or rejecting a key causes,
 * void every secret, as they void the session key; a return sent under an old secret is encrypted under the old
 * session key too, gets "bad load", and the minion signs in again and MACs it afresh;</li>
 * <li>it changes with the minion's key, and masters that share the master key and the session key derive the
 * same secret; nothing is kept per minion.</li>
 * </ul>
 */
public final class ReturnMacKeys {
    private static final int MAX_REMEMBERED = 100_000;
    private static final byte[] MASTER_LABEL = "jsalt return mac master key v1".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec masterMacKey;
    private final SessionKey sessionKey;

    public ReturnMacKeys(PrivateKey masterKey, SessionKey sessionKey) {
        this.masterMacKey = new SecretKeySpec(hmac(new SecretKeySpec(masterKey.getEncoded(), "HmacSHA256"), MASTER_LABEL), "HmacSHA256");
        this.sessionKey = sessionKey;
    }

    /**
     * Adds the secret of {@code id} to an accepted sign-in's reply when its request asked for one (a jsalt
     * minion); a salt-minion's reply stays as Salt's.
     *
     * @param minionKey the accepted key of {@code id}, which the minion presented
     */
    public void offer(Map<String, Object> authRequest, String id, PublicKey minionKey, Map<String, Object> reply) {
        if (ReturnMac.asked(authRequest)) {
            reply.put(ReturnMac.KEY_FIELD, macOf(id, minionKey).sealedFor(minionKey));
        }
    }

    /** True when {@code load} (a return of {@code id}) carries a MAC made with its secret under the current session key. */
    public boolean valid(String id, PublicKey minionKey, Map<String, Object> load) {
        return id.equals(load.get("id")) && macOf(id, minionKey).valid(load);
    }

    /** Each id's secret as last derived, for the key object and session key it was derived under. */
    private final Map<String, Derived> derived = new ConcurrentHashMap<>();

    private record Derived(PublicKey key, Crypticle session, ReturnMac mac) {}

    /**
     * The secret of {@code id} under the current session key, derived once per (key, session key) and then kept;
     * for the one-block sign-in reply ({@link io.jsalt.transport.message.SignInBlock}), which encrypts it to
     * {@code minionKey} with the session key.
     */
    public ReturnMac macOf(String id, PublicKey minionKey) {
        Crypticle session = sessionKey.crypticle();
        Derived d = derived.get(id);
        if (d != null && d.key() == minionKey && d.session() == session) {
            return d.mac();
        }
        if (derived.size() >= MAX_REMEMBERED) {
            derived.clear(); // ids of deleted keys leave entries behind; a rare full reset bounds them
        }
        ReturnMac mac = derive(id, minionKey, session);
        derived.put(id, new Derived(minionKey, session, mac));
        return mac;
    }

    private ReturnMac derive(String id, PublicKey minionKey, Crypticle session) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(masterMacKey);
            field(mac, session.keyString().getBytes(StandardCharsets.US_ASCII));
            field(mac, id.getBytes(StandardCharsets.UTF_8));
            field(mac, MessageDigest.getInstance("SHA-256").digest(minionKey.getEncoded()));
            return new ReturnMac(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    }

    private static void field(Mac mac, byte[] bytes) {
        mac.update(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16), (byte) (bytes.length >>> 8), (byte) bytes.length});
        mac.update(bytes);
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    }
}
