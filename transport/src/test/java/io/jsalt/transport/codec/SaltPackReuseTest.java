package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Each thread reuses its encoder and output array from one message to the next: nothing of one message may reach
 * the next, whatever its size or however it ended.
 */
class SaltPackReuseTest {

    private static Map<String, Object> load(String id, int retBytes) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", id);
        load.put("jid", "20261128121500123456");
        load.put("ret", "x".repeat(retBytes));
        load.put("bytes", new byte[] {1, 2, 3});
        load.put("list", List.of("a", 1L, true));
        return load;
    }

    @Test
    void aSmallMessageAfterALargeOneIsPackedAsOnItsOwn() {
        byte[] alone = SaltPack.pack(load("m1", 10));
        byte[] large = SaltPack.pack(load("m2", 3 * ReusableOutput.KEPT_BYTES)); // grows past the kept array
        byte[] after = SaltPack.pack(load("m1", 10));

        assertThat(after).isEqualTo(alone);
        assertThat(SaltPack.unpack(large)).isEqualTo(SaltPack.unpack(SaltPack.pack(load("m2", 3 * ReusableOutput.KEPT_BYTES))));
        assertThat(((Map<?, ?>) SaltPack.unpack(large)).get("ret")).isEqualTo("x".repeat(3 * ReusableOutput.KEPT_BYTES));
    }

    @Test
    void aMessageThatFailsHalfWayLeavesNothingForTheNext() {
        byte[] before = SaltPack.packBinType(load("m1", 100));
        Map<String, Object> bad = load("m1", 100);
        bad.put("zzz", new Object()); // packed last, after the rest is in the buffer
        assertThatThrownBy(() -> SaltPack.packBinType(bad)).isInstanceOf(IllegalArgumentException.class);
        Map<String, Object> lone = load("m1", 100);
        lone.put("zzz", "a\uD800b");
        assertThatThrownBy(() -> SaltPack.packBinType(lone)).isInstanceOf(IllegalArgumentException.class);

        assertThat(SaltPack.packBinType(load("m1", 100))).isEqualTo(before);
    }

    @Test
    void aQuestionMarkIsTextNotALoneSurrogate() {
        Object unpacked = SaltPack.unpack(SaltPack.pack(Map.of("q", "what? ¿qué? 日本?")));
        assertThat(unpacked).isEqualTo(Map.of("q", "what? ¿qué? 日本?"));
    }

    @Test
    void threadsPackingAtOnceEachGetTheirOwnMessages() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String id = "m" + t;
                Callable<Boolean> task = () -> {
                    byte[] expected = SaltPack.pack(load(id, 50 + id.length()));
                    for (int i = 0; i < 2_000; i++) {
                        int size = i % 10 == 0 ? 20_000 : 50 + id.length();
                        byte[] packed = SaltPack.pack(load(id, size));
                        if (size != 20_000 && !Arrays.equals(packed, expected)) {
                            return false;
                        }
                        Map<?, ?> back = (Map<?, ?>) SaltPack.unpack(packed);
                        if (!id.equals(back.get("id")) || !"x".repeat(size).equals(back.get("ret"))) {
                            return false;
                        }
                    }
                    return true;
                };
                results.add(pool.submit(task));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
