package io.jsalt.transport.message;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAKey;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * jsalt's one-block sign-in: the session key, the echoed token and the return secret in the one OAEP block of
 * {@code aes}, where Salt 3006's reply carries the token in a block of its own and jsalt's return secret took a
 * third ({@value ReturnMac#KEY_FIELD}). Each block costs the minion an RSA private-key operation (~8 ms on its C1
 * JVM); this costs one.
 *
 * <p>A jsalt minion asks for it in its {@code _auth} load ({@value #ASK}, beside {@link ReturnMac#ASK}; a
 * salt-master ignores both). A jsalt master that accepts the sign-in then marks its signed reply with {@value #ASK}
 * and sends {@code aes} as the OAEP encryption, to the minion's accepted key, of
 * {@code session key "_|-" token "_|-" secret}: the session key as Salt's string (base64, so it holds no
 * {@code "_|-"}), the token the minion sent as the master decrypted it (empty when it sent none or it did not
 * open), the 32-byte secret last. Salt 3006's own master joins session key and token in that block the same way
 * under {@code auth_mode} 2. {@code sig} stays the X9.31 signature over the session key alone. A reply that would
 * not fit one block (OAEP-SHA-1 takes at most the key's bytes less 42: 214 for a 2048-bit key, where a jsalt
 * minion's block is 190 bytes with its 76-character token) is sent in Salt's form with the secret apart, unmarked.
 */
public final class SignInBlock {
    /** In a minion's {@code _auth} load, and in the signed reply that answers it so: the format below. */
    public static final String ASK = "jsalt_aes_block";
    /** The one format so far: session key, token, return secret. */
    public static final String FORMAT = "key-token-secret";
    private static final byte[] SEPARATOR = "_|-".getBytes(StandardCharsets.US_ASCII);
    /** OAEP with SHA-1: two digests and two bytes of every block are padding. */
    private static final int OAEP_SHA1_OVERHEAD = 2 * 20 + 2;

    private SignInBlock() {
    }

    /** What one block carries, opened. */
    public record Opened(String sessionKey, byte[] token, ReturnMac returnMac) {
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

    /**
     * The block OAEP-encrypted to {@code minionKey}; empty when it would not fit one block of that key.
     *
     * @param token the token as the master decrypted it; null when the minion sent none or it did not open
     */
    public static Optional<byte[]> seal(PublicKey minionKey, String sessionKey, byte[] token, ReturnMac returnMac) {
        byte[] key = sessionKey.getBytes(StandardCharsets.US_ASCII);
        byte[] tok = token == null ? new byte[0] : token;
        byte[] secret = returnMac.secretBytes();
        byte[] plain = new byte[key.length + tok.length + secret.length + 2 * SEPARATOR.length];
        int at = 0;
        for (byte[] part : new byte[][] {key, SEPARATOR, tok, SEPARATOR, secret}) {
            System.arraycopy(part, 0, plain, at, part.length);
            at += part.length;
        }
        Arrays.fill(secret, (byte) 0);
        try {
            if (!(minionKey instanceof RSAKey rsa) || plain.length > (rsa.getModulus().bitLength() + 7) / 8 - OAEP_SHA1_OVERHEAD) {
                return Optional.empty();
            }
            return Optional.of(Rsa.oaepEncrypt(minionKey, plain));
        } finally {
            Arrays.fill(plain, (byte) 0);
        }
    }

    /**
     * Opens the {@code aes} of a reply marked with this format (its signature already checked).
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
            int keyEnd = indexOf(plain, SEPARATOR, 0);
            if (keyEnd < 0 || secretAt - SEPARATOR.length < keyEnd + SEPARATOR.length
                    || !Arrays.equals(plain, secretAt - SEPARATOR.length, secretAt, SEPARATOR, 0, SEPARATOR.length)) {
                throw new CryptoException("the sign-in block is not session key, token and secret");
            }
            String sessionKey = new String(plain, 0, keyEnd, StandardCharsets.US_ASCII);
            byte[] token = Arrays.copyOfRange(plain, keyEnd + SEPARATOR.length, secretAt - SEPARATOR.length);
            byte[] secret = Arrays.copyOfRange(plain, secretAt, plain.length);
            ReturnMac mac = new ReturnMac(secret);
            Arrays.fill(secret, (byte) 0);
            return new Opened(sessionKey, token, mac);
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
