package io.jsalt.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Salt's symmetric session cipher: AES-192-CBC with PKCS#7 padding, then HMAC-SHA256 over {@code iv ‖ ciphertext}
 * (encrypt-then-MAC). The key string is base64 of 24 AES key bytes followed by 32 HMAC key bytes.
 * Immutable and thread-safe: each thread keeps one {@link Cipher} and one {@link Mac} (neither is thread-safe) and
 * initialises them with this key on every call, since looking them up ({@code getInstance}) costs more than the
 * AES and HMAC of a return.
 */
public final class Crypticle {
    private static final int AES_KEY_SIZE = 24;
    private static final int HMAC_KEY_SIZE = 32;
    private static final int IV_SIZE = 16;
    private static final int MAC_SIZE = 32;
    private static final int NONCE_SIZE = 32;
    /** Salt's Crypticle.dumps prefix; no pickle is involved any more, the name is historical. */
    private static final byte[] PREFIX = "pickle::".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Per thread: every call below initialises it with its key and IV before use, and none calls another. */
    private static final ThreadLocal<Cipher> AES = ThreadLocal.withInitial(() -> lookUp(() -> Cipher.getInstance("AES/CBC/PKCS5Padding")));
    private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> lookUp(() -> Mac.getInstance("HmacSHA256")));

    private final SecretKeySpec aesKey;
    private final SecretKeySpec hmacKey;

    public Crypticle(String keyString) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(keyString == null ? "" : keyString.strip());
        } catch (IllegalArgumentException e) {
            throw new CryptoException("session key is not base64", e);
        }
        if (key.length != AES_KEY_SIZE + HMAC_KEY_SIZE) {
            throw new CryptoException("session key must be " + (AES_KEY_SIZE + HMAC_KEY_SIZE)
                    + " bytes, got " + key.length);
        }
        this.aesKey = new SecretKeySpec(key, 0, AES_KEY_SIZE, "AES");
        this.hmacKey = new SecretKeySpec(key, AES_KEY_SIZE, HMAC_KEY_SIZE, "HmacSHA256");
        Arrays.fill(key, (byte) 0);
    }

    /** A fresh random session key string (76 base64 characters). */
    public static String generateKeyString() {
        byte[] key = new byte[AES_KEY_SIZE + HMAC_KEY_SIZE];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    /** The key in Salt's string form, as it travels OAEP-encrypted in the auth reply. */
    public String keyString() {
        byte[] key = new byte[AES_KEY_SIZE + HMAC_KEY_SIZE];
        System.arraycopy(aesKey.getEncoded(), 0, key, 0, AES_KEY_SIZE);
        System.arraycopy(hmacKey.getEncoded(), 0, key, AES_KEY_SIZE, HMAC_KEY_SIZE);
        return Base64.getEncoder().encodeToString(key);
    }

    /** {@code iv ‖ AES-CBC(plaintext) ‖ HMAC-SHA256(iv ‖ ciphertext)} with a random IV. */
    public byte[] encrypt(byte[] plaintext) {
        byte[] iv = new byte[IV_SIZE];
        RANDOM.nextBytes(iv);
        return encrypt(plaintext, iv);
    }

    /** Fixed-IV form, for known-answer tests only: a repeated IV leaks plaintext equality. */
    byte[] encrypt(byte[] plaintext, byte[] iv) {
        if (iv.length != IV_SIZE) {
            throw new CryptoException("IV must be " + IV_SIZE + " bytes");
        }
        try {
            Cipher cipher = AES.get();
            cipher.init(Cipher.ENCRYPT_MODE, aesKey, new IvParameterSpec(iv));
            int cipherLength = cipher.getOutputSize(plaintext.length);
            byte[] out = new byte[IV_SIZE + cipherLength + MAC_SIZE];
            System.arraycopy(iv, 0, out, 0, IV_SIZE);
            int written = cipher.doFinal(plaintext, 0, plaintext.length, out, IV_SIZE);
            if (written != cipherLength) {
                out = Arrays.copyOf(out, IV_SIZE + written + MAC_SIZE);
            }
            Mac mac = HMAC.get();
            mac.init(hmacKey);
            mac.update(out, 0, IV_SIZE + written);
            mac.doFinal(out, IV_SIZE + written);
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("Crypticle encryption failed", e);
        }
    }

    /**
     * Checks the HMAC first, in constant time, then decrypts.
     *
     * @throws CrypticleAuthException when the HMAC does not match (another session key) or the input is too short
     * @throws CryptoException when the HMAC matches but the padding is bad
     */
    public byte[] decrypt(byte[] data) {
        if (data == null || data.length < IV_SIZE + MAC_SIZE) {
            throw new CrypticleAuthException("message authentication failed: message too short");
        }
        int signedLength = data.length - MAC_SIZE;
        byte[] expected;
        try {
            Mac mac = HMAC.get();
            mac.init(hmacKey);
            mac.update(data, 0, signedLength);
            expected = mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HMAC unavailable", e);
        }
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(data, signedLength, data.length))) {
            throw new CrypticleAuthException("message authentication failed");
        }
        try {
            Cipher cipher = AES.get();
            cipher.init(Cipher.DECRYPT_MODE, aesKey, new IvParameterSpec(data, 0, IV_SIZE));
            return cipher.doFinal(data, IV_SIZE, signedLength - IV_SIZE);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("Crypticle decryption failed: " + e.getMessage(), e);
        }
    }

    /**
     * Salt's {@code Crypticle.dumps} of an already msgpack-encoded payload:
     * {@code encrypt("pickle::" ‖ nonce ‖ payload)}, the nonce (32 ASCII characters) only on request replies.
     */
    public byte[] seal(byte[] payload, String nonce) {
        byte[] nonceBytes = nonce == null ? new byte[0] : nonceBytes(nonce);
        byte[] plaintext = new byte[PREFIX.length + nonceBytes.length + payload.length];
        System.arraycopy(PREFIX, 0, plaintext, 0, PREFIX.length);
        System.arraycopy(nonceBytes, 0, plaintext, PREFIX.length, nonceBytes.length);
        System.arraycopy(payload, 0, plaintext, PREFIX.length + nonceBytes.length, payload.length);
        return encrypt(plaintext);
    }

    /**
     * Salt's {@code Crypticle.loads} without the msgpack step: decrypts, checks the {@code pickle::} prefix and,
     * when {@code expectedNonce} is given, the 32-byte nonce after it; returns the payload bytes.
     */
    public byte[] open(byte[] data, String expectedNonce) {
        byte[] plaintext = decrypt(data);
        if (plaintext.length < PREFIX.length
                || !Arrays.equals(plaintext, 0, PREFIX.length, PREFIX, 0, PREFIX.length)) {
            throw new CryptoException("decrypted message lacks the pickle:: prefix");
        }
        int start = PREFIX.length;
        if (expectedNonce != null) {
            byte[] expected = expectedNonce.getBytes(StandardCharsets.US_ASCII);
            if (expected.length != NONCE_SIZE || plaintext.length < start + NONCE_SIZE
                    || !MessageDigest.isEqual(expected, Arrays.copyOfRange(plaintext, start, start + NONCE_SIZE))) {
                throw new CryptoException("nonce mismatch");
            }
            start += NONCE_SIZE;
        }
        return Arrays.copyOfRange(plaintext, start, plaintext.length);
    }

    private interface LookUp<T> {
        T get() throws GeneralSecurityException;
    }

    private static <T> T lookUp(LookUp<T> lookUp) {
        try {
            return lookUp.get();
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES-CBC or HMAC-SHA256 unavailable", e);
        }
    }

    private static byte[] nonceBytes(String nonce) {
        // Salt reads back exactly 32 bytes after the prefix, so any other length would corrupt the payload
        if (nonce.length() != NONCE_SIZE || !nonce.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
            throw new CryptoException("nonce must be 32 printable ASCII characters");
        }
        return nonce.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return "Crypticle[key hidden]";
    }
}
