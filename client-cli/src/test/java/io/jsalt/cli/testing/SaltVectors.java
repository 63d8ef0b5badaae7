package io.jsalt.cli.testing;

import io.jsalt.transport.codec.Json;
import io.jsalt.crypto.RsaKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.Map;

/**
 * The Salt 3006.8 vectors copied under {@code src/test/resources/salt-vectors}: the throwaway key pairs both
 * capture runs used (reused here so tests need no RSA key generation) and a few frames.
 */
public final class SaltVectors {
    private static final String ROOT = "salt-vectors/";
    private static volatile KeyPair master;
    private static volatile KeyPair minion;

    private SaltVectors() {}

    public static byte[] bytes(String path) {
        try (InputStream in = SaltVectors.class.getClassLoader().getResourceAsStream(ROOT + path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + ROOT + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String path) {
        return new String(bytes(path), StandardCharsets.US_ASCII);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(String path) {
        return (Map<String, Object>) Json.parse(new String(bytes(path), StandardCharsets.UTF_8));
    }

    /** keys/master.pem and its public half. */
    public static KeyPair masterKeyPair() {
        if (master == null) {
            master = new KeyPair(RsaKeys.parsePublicKey(text("keys/master.pub")), RsaKeys.parsePrivateKey(text("keys/master.pem")));
        }
        return master;
    }

    /** keys/minion.pem and its public half; the capture's minion id is {@code vector-minion}. */
    public static KeyPair minionKeyPair() {
        if (minion == null) {
            minion = new KeyPair(RsaKeys.parsePublicKey(text("keys/minion.pub")), RsaKeys.parsePrivateKey(text("keys/minion.pem")));
        }
        return minion;
    }

    /** The sha256 fingerprint Salt printed for a key file of the vectors (known-answer/d-pem-finger.json). */
    @SuppressWarnings("unchecked")
    public static String saltFingerprint(String keyFile) {
        Map<String, Object> prints = (Map<String, Object>) json("known-answer/d-pem-finger.json").get("fingerprints");
        return (String) ((Map<String, Object>) prints.get(keyFile)).get("sha256");
    }
}
