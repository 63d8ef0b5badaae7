package io.jsalt.bench.jmh;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.ReturnLoad;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Salt's msgpack codec on a return: a test.ping return and a grains-sized one (a map of 40 keys). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MsgpackBenchmark {
    private Map<String, Object> ping;
    private Map<String, Object> grains;
    private byte[] pingBytes;
    private byte[] grainsBytes;

    @Setup
    public void setUp() {
        ping = new ReturnLoad("bench-00042", "20261122093000123456", "test.ping", List.of(), true, 0, true).toLoad();
        Map<String, Object> g = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            g.put("grain_" + i, i % 3 == 0 ? List.of("a", "b", i) : "value number " + i);
        }
        grains = new ReturnLoad("bench-00042", "20261122093000123456", "grains.items", List.of(), g, 0, true).toLoad();
        pingBytes = SaltPack.pack(ping);
        grainsBytes = SaltPack.pack(grains);
    }

    @Benchmark
    public byte[] encodePingReturn() {
        return SaltPack.pack(ping);
    }

    @Benchmark
    public Object decodePingReturn() {
        return SaltPack.unpack(pingBytes);
    }

    @Benchmark
    public byte[] encodeGrainsReturn() {
        return SaltPack.pack(grains);
    }

    @Benchmark
    public Object decodeGrainsReturn() {
        return SaltPack.unpack(grainsBytes);
    }
}
