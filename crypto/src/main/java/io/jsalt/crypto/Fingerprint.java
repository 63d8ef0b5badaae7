package io.jsalt.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Key fingerprints exactly as {@code salt-key -f} prints them (Salt's {@code pem_finger}): the hash of the PEM
 * body, meaning every non-blank line but the first and the last (BEGIN/END), line ends kept, printed as
 * lowercase hex pairs joined by ':'. {@code master_finger} in a minion config is compared against this.
 */
public final class Fingerprint {
    private Fingerprint() {
    }

    public static String sha256(String pem) {
        return of(pem, "SHA-256");
    }

    public static String md5(String pem) {
        return of(pem, "MD5");
    }

    private static String of(String pem, String algorithm) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new CryptoException(algorithm + " unavailable", e);
        }
        String hex = HexFormat.of().formatHex(digest.digest(body(pem)));
        StringBuilder finger = new StringBuilder(hex.length() * 3 / 2);
        for (int i = 0; i < hex.length(); i += 2) {
            if (i > 0) {
                finger.append(':');
            }
            finger.append(hex, i, i + 2);
        }
        return finger.toString();
    }

    /** Salt: {@code b"".join([x for x in fp_.readlines() if x.strip()][1:-1])}. */
    private static byte[] body(String pem) {
        if (pem == null) {
            throw new CryptoException("no PEM text");
        }
        // split after each '\n' so every line keeps its own line end, as Python's readlines() does
        String[] lines = pem.split("(?<=\n)");
        StringBuilder body = new StringBuilder(pem.length());
        int first = -1;
        int last = -1;
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first < 0 || first == last || !lines[first].strip().startsWith("-----BEGIN ")
                || !lines[last].strip().startsWith("-----END ")) {
            throw new CryptoException("not a PEM text");
        }
        for (int i = first + 1; i < last; i++) {
            if (!lines[i].isBlank()) {
                body.append(lines[i]);
            }
        }
        return body.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
