package io.jsalt.bench.jmh;

import io.jsalt.crypto.Crypticle;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.ReturnLoad;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** The session cipher on a packed test.ping return (about 200 bytes): every publication and return pays it. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CrypticleBenchmark {
    private Crypticle crypticle;
    private byte[] plain;
    private byte[] sealed;

    @Setup
    public void setUp() {
        crypticle = new Crypticle(Crypticle.generateKeyString());
        plain = SaltPack.pack(new ReturnLoad("bench-00042", "20261122093000123456", "test.ping", List.of(), true, 0, true).toLoad());
        sealed = crypticle.encrypt(plain);
    }

    @Benchmark
    public byte[] encrypt() {
        return crypticle.encrypt(plain);
    }

    @Benchmark
    public byte[] decrypt() {
        return crypticle.decrypt(sealed);
    }
}
