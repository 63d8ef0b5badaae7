package io.jsalt.crypto;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Writes DER as PEM text the way Salt 3006 (pycryptodome's {@code export_key("PEM")}) does: 64-character base64
 * lines, {@code \n} line ends and no newline after the END line, so a key we write is byte-identical to Salt's.
 */
final class PemArmor {
    private static final Base64.Encoder BODY = Base64.getMimeEncoder(64, new byte[] {'\n'});

    private PemArmor() {
    }

    static String armor(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + new String(BODY.encode(der), StandardCharsets.US_ASCII)
                + "\n-----END " + type + "-----";
    }
}
