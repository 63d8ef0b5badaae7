package io.jsalt.transport.message;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Map;

/**
 * jsalt's one-block sign-in: the session key and the return secret in the one OAEP block of {@code aes}, where
 * Salt 3006's reply carries the echoed token in a block of its own and jsalt's return secret took a third
 * ({@value ReturnMac#KEY_FIELD}). Each block costs the minion an RSA private-key operation (~8 ms on its C1 JVM);
 * this costs one. The master does not open the token either (one private-key operation of its two per sign-in):
 * what the token proves to a Salt minion (the answer comes from the holder of the master key, now) a jsalt minion
 * has from the reply itself, which it takes only signed by the pinned master key over the request's fresh nonce.
 *
 * <p>A jsalt minion asks for it in its {@code _auth} load ({@value #ASK}, beside {@link ReturnMac#ASK}; a
 * salt-master ignores both, and the minion still sends Salt's token, which a salt-master echoes as before). A
 * jsalt master that accepts the sign-in then marks its signed reply with {@value #ASK} and sends {@code aes} as
 * the OAEP encryption, to the minion's accepted key, of {@code session key "_|-" secret}: the session key as
 * Salt's string (base64, so it holds no {@code "_|-"}), then the 32-byte secret. {@code sig} stays the X9.31
 * signature over the session key alone. Salt 3006's own master joins session key and token in that block the
 * same way under {@code auth_mode} 2.
 */
public final class SignInBlock {
    /** In a minion's {@code _auth} load, and in the signed reply that answers it so: the format below. */
    public static final String ASK = "jsalt_aes_block";
    /** The one format so far: session key, return secret. */
    public static final String FORMAT = "key-secret";
    private static final byte[] SEPARATOR = "_|-".getBytes(StandardCharsets.US_ASCII);

    private SignInBlock() {
    }

    /** What one block carries, opened. */
    public record Opened(String sessionKey, ReturnMac returnMac) {
        @Override
        public String toString() {
            return "SignInBlock.Opened[...]"; // never the keys
        }
    }

    /** True when a minion's {@code _auth} load asks for this format (and a return secret to put in it). */
    public static boolean asked(Map<String, Object> authLoad) {
        return FORMAT.equals(authLoad.get(ASK)) && ReturnMac.asked(authLoad);
    }

    /** True when a signed sign-in reply carries its keys in this format. */
    public static boolean carriedBy(Map<String, Object> signedReply) {
        return signedReply.containsKey(ASK);
    }

    /** The block OAEP-encrypted to {@code minionKey}: 76 + 3 + 32 bytes, which a 2048-bit key (the least a master accepts) takes. */
    public static byte[] seal(PublicKey minionKey, String sessionKey, ReturnMac returnMac) {
        byte[] key = sessionKey.getBytes(StandardCharsets.US_ASCII);
        byte[] secret = returnMac.secretBytes();
        byte[] plain = new byte[key.length + SEPARATOR.length + secret.length];
        System.arraycopy(key, 0, plain, 0, key.length);
        System.arraycopy(SEPARATOR, 0, plain, key.length, SEPARATOR.length);
        System.arraycopy(secret, 0, plain, key.length + SEPARATOR.length, secret.length);
        Arrays.fill(secret, (byte) 0);
        try {
            return Rsa.oaepEncrypt(minionKey, plain);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    /**
     * Opens the {@code aes} of a reply marked with this format (its signature and nonce already checked).
     *
     * @throws CryptoException when it does not open with this key, or is not in this format
     */
    public static Opened open(Map<String, Object> signedReply, PrivateKey minionKey) {
        if (!FORMAT.equals(signedReply.get(ASK))) {
            throw new CryptoException("unknown sign-in block format");
        }
        if (!(signedReply.get("aes") instanceof byte[] aes)) {
            throw new CryptoException("the sign-in reply has no aes block");
        }
        byte[] plain = Rsa.oaepDecrypt(minionKey, aes);
        try {
            int secretAt = plain.length - ReturnMac.SECRET_BYTES;
            int keyEnd = secretAt - SEPARATOR.length;
            if (keyEnd <= 0 || !Arrays.equals(plain, keyEnd, secretAt, SEPARATOR, 0, SEPARATOR.length)
                    || indexOf(plain, SEPARATOR, 0) != keyEnd) {
                throw new CryptoException("the sign-in block is not session key and secret");
            }
            String sessionKey = new String(plain, 0, keyEnd, StandardCharsets.US_ASCII);
            byte[] secret = Arrays.copyOfRange(plain, secretAt, plain.length);
            ReturnMac mac = new ReturnMac(secret);
            Arrays.fill(secret, (byte) 0);
            return new Opened(sessionKey, mac);
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        for (int i = from; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
