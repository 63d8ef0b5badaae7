package io.jsalt.bench.swarm;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;

/**
 * Runs a swarm JVM's RSA and AES code until the JIT has compiled it, before the benchmark's clock starts, on
 * a key pair made for it alone (no minion's, no master's: the master sees none of this).
 *
 * <p>Why: a swarm JVM stands in for hundreds of hosts, each with cores of its own. Its JIT compiling the
 * sign-in's crypto during a storm, and its private-key operations running meanwhile as C1 code (7-9 ms instead
 * of ~1 ms), are artefacts of a thousand minions sharing one JVM on the master's two cores: they took CPU the
 * master needed (session 14, docs/BENCHMARKS.md). What a minion sends and the master does are unchanged.
 *
 * <p>The first private-key operation with a key sets up the JDK's RSA blinding for it ({@code RSACore}: a random
 * value and its inverse modulo the key's modulus, kept per modulus), so each swarm minion's one opening of its
 * block pays a modular inverse (~0.25 ms at C2): a real minion does too, once per process. A warm-up on one key
 * reaches that inverse once; the inverse alone, on fresh random values, compiles the same code without touching
 * any minion's key (session 15). Every minion still sets up its own blinding during the storm.
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
        BigInteger modulus = ((RSAPublicKey) key.getPublic()).getModulus();
        SecureRandom random = new SecureRandom();
        int done = 0;
        for (int i = 0; i < rounds; i++) {
            block[0] = (byte) i;
            byte[] sealed = Rsa.oaepEncrypt(key.getPublic(), block); // the token the minion sends
            byte[] opened = Rsa.oaepDecrypt(key.getPrivate(), sealed); // the minion opens its block
            byte[] signature = Rsa.sign(key.getPrivate(), opened); // as the master signs its reply
            byte[] tok = Rsa.x931PrivateEncrypt(key.getPrivate(), TOK_PLAINTEXT);
            boolean checked = Rsa.verify(key.getPublic(), opened, signature) && Rsa.x931PublicDecrypt(key.getPublic(), tok).length > 0;
            byte[] roundTrip = aes.decrypt(aes.encrypt(load));
            boolean inverted = blindingInverse(modulus, random).signum() > 0;
            if (checked && inverted && roundTrip.length == load.length) {
                done++;
            }
        }
        return done;
    }

    /**
     * What the JDK's blinding set-up computes for a key used the first time: a random value below the modulus and
     * its inverse (a random value sharing a factor with the modulus would have none; then another is drawn).
     */
    static BigInteger blindingInverse(BigInteger modulus, SecureRandom random) {
        while (true) {
            BigInteger r = new BigInteger(modulus.bitLength(), random).mod(modulus);
            try {
                BigInteger inverse = r.modInverse(modulus);
                if (!r.multiply(inverse).mod(modulus).equals(BigInteger.ONE)) {
                    throw new IllegalStateException("modular inverse is wrong");
                }
                return inverse;
            } catch (ArithmeticException notInvertible) {
                // r is 0 or shares a factor with the modulus: draw again
            }
        }
    }
}
