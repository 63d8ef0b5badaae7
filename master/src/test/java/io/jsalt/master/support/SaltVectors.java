package io.jsalt.master.support;

import io.jsalt.transport.codec.Json;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.Map;

/**
 * The Salt 3006.8 captures copied under {@code src/test/resources/salt-vectors} (see the README of
 * ../shared/salt-vectors): raw frames, their JSON descriptions, and the throwaway keys of both runs.
 */
public final class SaltVectors {
    private static final String ROOT = "salt-vectors/";
    public static final String RUN1 = "frames/run1-auto-accept/";

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
        return new String(bytes(path), StandardCharsets.UTF_8);
    }

    public static Map<String, Object> json(String path) {
        return Wire.asMap(Json.parse(text(path)));
    }

    /** The minion key pair of the captures (id {@code vector-minion}). */
    public static KeyPair minionKey() {
        return pair(text("keys/minion.pem"));
    }

    public static KeyPair masterKey() {
        return pair(text("keys/master.pem"));
    }

    private static KeyPair pair(String pem) {
        PrivateKey priv = RsaKeys.parsePrivateKey(pem);
        return new KeyPair(RsaKeys.publicKeyOf(priv), priv);
    }

    public static String minionPub() {
        return text("keys/minion.pub");
    }

    /**
     * The decrypted load of a captured {@code enc: aes} request, opened with the session key its JSON
     * description records (exactly what the master's dispatcher sees, nonce included).
     */
    public static Map<String, Object> aesRequestLoad(String name) {
        Map<String, Object> described = json(RUN1 + name + ".json");
        String sessionKey = Wire.string(Wire.map(described, "load_crypticle"), "session_key");
        byte[] blob = RequestEnvelope.decode(bytes(RUN1 + name + ".bin")).aesLoad();
        return Wire.asMap(SaltPack.unpack(new Crypticle(sessionKey).open(blob, null)));
    }
}
