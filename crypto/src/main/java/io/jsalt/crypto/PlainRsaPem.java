package io.jsalt.crypto;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The RSA key forms every daemon reads at start (Salt's {@code BEGIN RSA PRIVATE KEY} and {@code BEGIN PUBLIC KEY},
 * and the PKCS#1 public and PKCS#8 private forms) read with the JDK alone. Bouncy Castle's PEM parser reads them
 * too, but its jar is signed: the first class loaded from it makes the JDK verify the jar's signature and keep a
 * table of its ~6,800 entries, ~2 MiB of a minion's heap and metaspace for good (docs/BENCHMARKS.md). Anything
 * this class does not read plainly (PEM headers such as an encrypted key's, another key type, a malformed body)
 * is left to {@link RsaKeys}' Bouncy Castle path, so errors and the forms accepted stay as they were.
 */
final class PlainRsaPem {
    /** AlgorithmIdentifier { rsaEncryption, NULL }. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d,
        0x01, 0x01, 0x01, 0x05, 0x00};
    private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};
    private static final int SEQUENCE = 0x30;
    private static final int INTEGER = 0x02;
    private static final int BIT_STRING = 0x03;
    private static final int OCTET_STRING = 0x04;

    private PlainRsaPem() {
    }

    /** {@code BEGIN PUBLIC KEY} (SPKI) or {@code BEGIN RSA PUBLIC KEY} (PKCS#1), else empty. */
    static Optional<PublicKey> publicKey(String pem) {
        byte[] der = body(pem, "PUBLIC KEY");
        if (der == null) {
            byte[] pkcs1 = body(pem, "RSA PUBLIC KEY");
            der = pkcs1 == null ? null : tlv(SEQUENCE, RSA_ALGORITHM, tlv(BIT_STRING, new byte[] {0}, pkcs1));
        }
        if (der == null) {
            return Optional.empty();
        }
        try {
            PublicKey key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
            return key instanceof RSAPublicKey ? Optional.of(key) : Optional.empty();
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code BEGIN RSA PRIVATE KEY} (PKCS#1) or {@code BEGIN PRIVATE KEY} (unencrypted PKCS#8), else empty. */
    static Optional<PrivateKey> privateKey(String pem) {
        byte[] der = body(pem, "PRIVATE KEY");
        if (der == null) {
            byte[] pkcs1 = body(pem, "RSA PRIVATE KEY");
            der = pkcs1 == null ? null : tlv(SEQUENCE, VERSION_0, RSA_ALGORITHM, tlv(OCTET_STRING, pkcs1));
        }
        if (der == null) {
            return Optional.empty();
        }
        try {
            PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
            return key instanceof RSAPrivateCrtKey ? Optional.of(key) : Optional.empty();
        } catch (GeneralSecurityException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The PKCS#1 RSAPrivateKey inside the JDK's PKCS#8 encoding of an RSA key (version 0, rsaEncryption, the
     * key as an OCTET STRING), else empty.
     */
    static Optional<byte[]> pkcs1Of(byte[] pkcs8) {
        Der outer = Der.read(pkcs8, 0);
        if (outer == null || outer.tag != SEQUENCE || outer.end != pkcs8.length) {
            return Optional.empty();
        }
        int at = outer.start;
        if (!Arrays.equals(pkcs8, at, Math.min(at + VERSION_0.length, outer.end), VERSION_0, 0, VERSION_0.length)) {
            return Optional.empty();
        }
        at += VERSION_0.length;
        if (!Arrays.equals(pkcs8, at, Math.min(at + RSA_ALGORITHM.length, outer.end), RSA_ALGORITHM, 0, RSA_ALGORITHM.length)) {
            return Optional.empty();
        }
        Der key = Der.read(pkcs8, at + RSA_ALGORITHM.length);
        if (key == null || key.tag != OCTET_STRING || key.end != outer.end) {
            return Optional.empty(); // attributes after the key, or a different layout: not the JDK's form
        }
        return Optional.of(Arrays.copyOfRange(pkcs8, key.start, key.end));
    }

    /**
     * The DER between {@code -----BEGIN type-----} and {@code -----END type-----}, or null when the text is not
     * exactly that: one block, base64 lines only (no headers), surrounding whitespace allowed.
     */
    private static byte[] body(String pem, String type) {
        if (pem == null) {
            return null;
        }
        String text = pem.strip();
        String begin = "-----BEGIN " + type + "-----";
        String end = "-----END " + type + "-----";
        if (!text.startsWith(begin) || !text.endsWith(end) || text.length() < begin.length() + end.length()) {
            return null;
        }
        String base64 = text.substring(begin.length(), text.length() - end.length()).replaceAll("[\r\n]", "");
        if (base64.isEmpty() || !base64.chars().allMatch(PlainRsaPem::isBase64)) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(base64.getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean isBase64(int c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=';
    }

    /** A DER element: {@code tag}, then {@code contents}, with a definite length. */
    private static byte[] tlv(int tag, byte[]... contents) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] c : contents) {
            body.writeBytes(c);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = body.size();
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    /** One DER header read at an offset: the contents are [start, end). */
    private record Der(int tag, int start, int end) {
        static Der read(byte[] b, int at) {
            if (at + 2 > b.length) {
                return null;
            }
            int tag = b[at] & 0xff;
            int first = b[at + 1] & 0xff;
            int pos = at + 2;
            long length;
            if (first < 0x80) {
                length = first;
            } else {
                int bytes = first & 0x7f;
                if (bytes == 0 || bytes > 4 || pos + bytes > b.length) {
                    return null;
                }
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = length << 8 | (b[pos++] & 0xff);
                }
            }
            return pos + length > b.length ? null : new Der(tag, pos, (int) (pos + length));
        }
    }
}
