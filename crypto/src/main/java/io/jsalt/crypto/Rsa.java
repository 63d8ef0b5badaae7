package io.jsalt.crypto;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.RSAKey;
import java.security.spec.MGF1ParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * The RSA operations of Salt's wire: OAEP (SHA-1, MGF1-SHA-1) for the session key and tokens, PKCS#1 v1.5 SHA-1
 * signatures for {@code sig} fields, and X9.31 "private encryption" for the minion {@code tok} and the signature
 * over the session key digest.
 */
public final class Rsa {
    private static final String OAEP = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";
    private static final OAEPParameterSpec OAEP_SHA1 = new OAEPParameterSpec(
            "SHA-1", "MGF1", MGF1ParameterSpec.SHA1, PSource.PSpecified.DEFAULT);
    private static final String RAW = "RSA/ECB/NoPadding";
    private static final String SIGNATURE = "SHA1withRSA";
    private static final String SIGNATURE_SHA256 = "SHA256withRSA";
    /** OpenSSL keeps whichever of s and n−s ends in nibble 12 (0xC), the X9.31 trailer's low nibble. */
    private static final int X931_LOW_NIBBLE = 12;

    private Rsa() {
    }

    public static byte[] oaepEncrypt(PublicKey key, byte[] plaintext) {
        try {
            Cipher cipher = Cipher.getInstance(OAEP);
            cipher.init(Cipher.ENCRYPT_MODE, key, OAEP_SHA1);
            return cipher.doFinal(plaintext);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("OAEP encryption failed", e);
        }
    }

    public static byte[] oaepDecrypt(PrivateKey key, byte[] ciphertext) {
        try {
            Cipher cipher = Cipher.getInstance(OAEP);
            cipher.init(Cipher.DECRYPT_MODE, key, OAEP_SHA1);
            return cipher.doFinal(ciphertext);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("OAEP decryption failed", e);
        }
    }

    /** PKCS#1 v1.5 signature over SHA-1 of {@code data} (Salt's {@code sign_message}). */
    public static byte[] sign(PrivateKey key, byte[] data) {
        return sign(SIGNATURE, key, data);
    }

    /** PKCS#1 v1.5 signature over SHA-256 of {@code data}: for jsalt's own messages, which Salt never reads. */
    public static byte[] signSha256(PrivateKey key, byte[] data) {
        return sign(SIGNATURE_SHA256, key, data);
    }

    /** As {@link #verify}, for {@link #signSha256}. */
    public static boolean verifySha256(PublicKey key, byte[] data, byte[] sig) {
        return verify(SIGNATURE_SHA256, key, data, sig);
    }

    private static byte[] sign(String algorithm, PrivateKey key, byte[] data) {
        try {
            Signature signature = Signature.getInstance(algorithm);
            signature.initSign(key);
            signature.update(data);
            return signature.sign();
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("signing failed", e);
        }
    }

    /** True only for a valid signature; a wrong, truncated or garbage signature gives false, never an exception. */
    public static boolean verify(PublicKey key, byte[] data, byte[] sig) {
        return verify(SIGNATURE, key, data, sig);
    }

    private static boolean verify(String algorithm, PublicKey key, byte[] data, byte[] sig) {
        if (data == null || sig == null) {
            return false;
        }
        Signature signature;
        try {
            signature = Signature.getInstance(algorithm);
            signature.initVerify(key);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("cannot verify with this key", e);
        }
        try {
            signature.update(data);
            return signature.verify(sig);
        } catch (SignatureException | RuntimeException e) {
            return false;
        }
    }

    /** OpenSSL {@code RSA_private_encrypt(..., RSA_X931_PADDING)}: deterministic, output as long as the modulus. */
    public static byte[] x931PrivateEncrypt(PrivateKey key, byte[] msg) {
        BigInteger n = modulus(key);
        int k = byteLength(n);
        byte[] raw = rawRsa(Cipher.ENCRYPT_MODE, key, X931Padding.pad(msg, k));
        BigInteger s = new BigInteger(1, raw);
        return toFixedLength(s.min(n.subtract(s)), k);
    }

    /** OpenSSL {@code RSA_public_decrypt(..., RSA_X931_PADDING)}: recovers the message or fails on a bad pad. */
    public static byte[] x931PublicDecrypt(PublicKey key, byte[] sig) {
        BigInteger n = modulus(key);
        int k = byteLength(n);
        if (sig == null || sig.length != k) {
            throw new CryptoException("X9.31 signature must be " + k + " bytes");
        }
        BigInteger m = new BigInteger(1, rawRsa(Cipher.DECRYPT_MODE, key, sig));
        if ((m.intValue() & 0xF) != X931_LOW_NIBBLE) {
            m = n.subtract(m);
        }
        return X931Padding.unpad(toFixedLength(m, k));
    }

    private static byte[] rawRsa(int mode, Key key, byte[] block) {
        try {
            Cipher cipher = Cipher.getInstance(RAW);
            cipher.init(mode, key);
            return cipher.doFinal(block);
        } catch (InvalidKeyException e) {
            throw new CryptoException("unusable RSA key", e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new CryptoException("raw RSA operation failed", e);
        }
    }

    private static BigInteger modulus(Key key) {
        if (!(key instanceof RSAKey)) {
            throw new CryptoException("not an RSA key");
        }
        return ((RSAKey) key).getModulus();
    }

    private static int byteLength(BigInteger n) {
        return (n.bitLength() + 7) / 8;
    }

    private static byte[] toFixedLength(BigInteger value, int length) {
        if (value.signum() < 0) {
            throw new CryptoException("negative RSA value");
        }
        byte[] bytes = value.toByteArray();
        if (bytes.length == length) {
            return bytes;
        }
        int skip = bytes.length > length ? bytes.length - length : 0;
        for (int i = 0; i < skip; i++) {
            if (bytes[i] != 0) {
                throw new CryptoException("RSA value longer than the modulus");
            }
        }
        byte[] out = new byte[length];
        int copy = bytes.length - skip;
        System.arraycopy(bytes, skip, out, length - copy, copy);
        return out;
    }
}
