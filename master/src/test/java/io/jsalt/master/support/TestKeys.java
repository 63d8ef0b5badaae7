package io.jsalt.master.support;

import io.jsalt.crypto.RsaKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;

/**
 * RSA key pairs shared by every test in the JVM, read from throwaway PEM files so no test pays for key
 * generation. {@link #master()} and {@link #minion(int) minion(0)} are the Salt vectors' own keys;
 * minions 1 and 2 come from {@code test-keys/}; any further one is generated once.
 */
public final class TestKeys {
    private static final int STORED = 2;
    private static final List<KeyPair> MINIONS = new ArrayList<>();
    private static KeyPair master;

    private TestKeys() {}

    public static synchronized KeyPair master() {
        if (master == null) {
            master = SaltVectors.masterKey();
        }
        return master;
    }

    /** The vectors' master key as Salt wrote it, to seed a pki folder. */
    public static String masterPrivatePem() {
        return SaltVectors.text("keys/master.pem");
    }

    public static synchronized KeyPair minion(int n) {
        if (MINIONS.isEmpty()) {
            MINIONS.add(SaltVectors.minionKey());
        }
        while (MINIONS.size() <= n) {
            int next = MINIONS.size();
            MINIONS.add(next <= STORED ? read("test-keys/minion-" + next + ".pem") : RsaKeys.generate());
        }
        return MINIONS.get(n);
    }

    public static String pem(KeyPair pair) {
        return RsaKeys.publicKeyPem(pair.getPublic());
    }

    private static KeyPair read(String resource) {
        try (InputStream in = TestKeys.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            PrivateKey key = RsaKeys.parsePrivateKey(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
            return new KeyPair(RsaKeys.publicKeyOf(key), key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
