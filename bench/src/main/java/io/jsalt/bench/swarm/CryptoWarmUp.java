package io.jsalt.bench.swarm;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;

/**
 * Runs a swarm JVM's RSA and AES code until the JIT has compiled it, before the benchmark's clock starts, on
 * a key pair made for it alone (no minion's, no master's: the master sees none of this).
 *
 * <p>Why: a swarm JVM stands in for hundreds of hosts, each with cores of its own. Its JIT compiling the
 * sign-in's crypto during a storm, and its private-key operations running meanwhile as C1 code (7-9 ms instead
 * of ~1 ms), are artefacts of a thousand minions sharing one JVM on the master's two cores: they took CPU the
 * master needed (session 14, docs/BENCHMARKS.md). What a minion sends and the master does are unchanged.
 */
public final class CryptoWarmUp {
    /** Rounds of every operation: C2 has compiled BigInteger's modular arithmetic after ~50 (scratch loop, load 13). */
    static final int ROUNDS = 200;
    private static final byte[] TOK_PLAINTEXT = "salt".getBytes(StandardCharsets.US_ASCII);

    private CryptoWarmUp() {
    }

    /** The operations a minion's sign-in and its first requests make, {@code rounds} times; returns the rounds run. */
    public static int run(int rounds) {
        KeyPair key = RsaKeys.generate();
        byte[] block = new byte[60]; // a session key and a return secret, as SignInBlock seals them
        Crypticle aes = new Crypticle(Crypticle.generateKeyString());
        byte[] load = new byte[256];
        int done = 0;
        for (int i = 0; i < rounds; i++) {
            block[0] = (byte) i;
            byte[] sealed = Rsa.oaepEncrypt(key.getPublic(), block); // the token the minion sends
            byte[] opened = Rsa.oaepDecrypt(key.getPrivate(), sealed); // the minion opens its block
            byte[] signature = Rsa.sign(key.getPrivate(), opened); // as the master signs its reply
            byte[] tok = Rsa.x931PrivateEncrypt(key.getPrivate(), TOK_PLAINTEXT);
            boolean checked = Rsa.verify(key.getPublic(), opened, signature) && Rsa.x931PublicDecrypt(key.getPublic(), tok).length > 0;
            byte[] roundTrip = aes.decrypt(aes.encrypt(load));
            if (checked && roundTrip.length == load.length) {
                done++;
            }
        }
        return done;
    }
}
