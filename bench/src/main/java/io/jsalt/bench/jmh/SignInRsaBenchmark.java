package io.jsalt.bench.jmh;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The RSA-2048 operations of one sign-in. Master: OAEP-decrypt the minion's token, OAEP-encrypt the
 * session key and the token to the minion, X9.31-sign the session key digest, PKCS#1-sign the reply.
 * Minion: OAEP-decrypt session key and token, verify both signatures; X9.31 tok for its start events.
 * And the PEM parse the master repeats for every return and event it checks (KeyStore.acceptedKey).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SignInRsaBenchmark {
    private KeyPair master;
    private KeyPair minion;
    private byte[] token;
    private byte[] encryptedToken;
    private byte[] reply;
    private byte[] replySig;
    private byte[] x931Sig;
    private String minionPem;

    @Setup
    public void setUp() {
        master = RsaKeys.generate();
        minion = RsaKeys.generate();
        token = Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII);
        encryptedToken = Rsa.oaepEncrypt(master.getPublic(), token);
        reply = new byte[900];
        replySig = Rsa.sign(master.getPrivate(), reply);
        minionPem = RsaKeys.publicKeyPem(minion.getPublic());
        x931Sig = Rsa.x931PrivateEncrypt(master.getPrivate(), "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    }

    @Benchmark
    public byte[] oaepEncryptPublic() {
        return Rsa.oaepEncrypt(minion.getPublic(), token);
    }

    @Benchmark
    public byte[] oaepDecryptPrivate() {
        return Rsa.oaepDecrypt(master.getPrivate(), encryptedToken);
    }

    @Benchmark
    public byte[] pkcs1SignPrivate() {
        return Rsa.sign(master.getPrivate(), reply);
    }

    @Benchmark
    public boolean pkcs1VerifyPublic() {
        return Rsa.verify(master.getPublic(), reply, replySig);
    }

    @Benchmark
    public byte[] x931SignPrivate() {
        return Rsa.x931PrivateEncrypt(master.getPrivate(), token);
    }

    /** What the master does with the stored PEM of a minion for every return and event it checks. */
    @Benchmark
    public java.security.PublicKey parsePublicKeyPem() {
        return RsaKeys.parsePublicKey(minionPem);
    }

    @Benchmark
    public byte[] x931RecoverPublic() {
        return Rsa.x931PublicDecrypt(master.getPublic(), x931Sig);
    }
}
