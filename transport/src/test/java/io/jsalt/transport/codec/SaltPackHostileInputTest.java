package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A peer can send anything; the decoder's only answer to garbage is a WireException. */
class SaltPackHostileInputTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final long SEED = 0x5A17_3006_8L;

    @ParameterizedTest
    @ValueSource(strings = {
        "frames/run1-auto-accept/001-minion-to-master-auth-request.bin",
        "frames/run1-auto-accept/002-master-to-minion-auth-reply-accepted.bin",
        "frames/run1-auto-accept/005-master-to-minion-pillar-reply.bin",
        "frames/run1-auto-accept/007-master-to-minion-minion-event-reply.bin",
        "frames/run2-pending-then-accepted-zmq-filtering/017-master-to-minion-publish-test.ping-frame1-payload.bin",
        "events/run1-auto-accept/003-minion_start.bin"})
    void rejectsEveryTruncationOfARealFrame(String vector) {
        byte[] frame = SaltVectors.bytes(vector);
        for (int length = 0; length < frame.length; length++) {
            byte[] prefix = Arrays.copyOf(frame, length);
            assertThatThrownBy(() -> SaltPack.unpack(prefix)).as("prefix of %d bytes", length)
                    .isExactlyInstanceOf(WireException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "df80000000",           // map32 with 2^31 entries: beyond a Java int
        "df7fffffff80",         // map32 with 2^31 - 1 entries
        "dfffffffff",           // map32 with 2^32 - 1 entries
        "dd7fffffffc0c0",       // array32 with 2^31 - 1 items
        "ddffffffff",           // array32 with 2^32 - 1 items
        "dbffffffff616263",     // str32 claiming 4 GB
        "db7fffffff616263",     // str32 claiming 2 GB
        "c6ffffffff00",         // bin32 claiming 4 GB
        "c97fffffff0500",       // ext32 claiming 2 GB
        "daffff61",             // str16 claiming 65535 bytes with one present
        "8fc0"                  // fixmap of 15 entries with half of one present
    })
    void rejectsLengthHeadersLargerThanTheMessageWithoutAllocating(String hex) {
        assertThatThrownBy(() -> SaltPack.unpack(HEX.parseHex(hex))).isExactlyInstanceOf(WireException.class);
        assertThatThrownBy(() -> SaltPack.unpackAll(HEX.parseHex(hex))).isExactlyInstanceOf(WireException.class);
    }

    @Test
    void rejectsTenThousandNestedArraysAndMaps() {
        byte[] arrays = new byte[10_001];
        Arrays.fill(arrays, (byte) 0x91);
        arrays[10_000] = (byte) 0xc0;
        byte[] maps = new byte[20_001];
        for (int i = 0; i < 10_000; i++) {
            maps[2 * i] = (byte) 0x81;
            maps[2 * i + 1] = (byte) 0xc0;   // key nil, value: the next map
        }
        maps[20_000] = (byte) 0xc0;
        byte[] mapsAsKeys = new byte[10_002];
        Arrays.fill(mapsAsKeys, (byte) 0x81);
        mapsAsKeys[10_000] = (byte) 0xc0;
        mapsAsKeys[10_001] = (byte) 0xc0;

        for (byte[] deep : List.of(arrays, maps, mapsAsKeys)) {
            assertThatThrownBy(() -> SaltPack.unpack(deep)).isExactlyInstanceOf(WireException.class)
                    .hasMessageContaining("deeper than 100");
        }
    }

    @Test
    void acceptsExactlyOneHundredNestedArraysButNotOneHundredAndOne() {
        assertThat(SaltPack.unpack(nestedArrays(100))).isNotNull();
        assertThatThrownBy(() -> SaltPack.unpack(nestedArrays(101))).isExactlyInstanceOf(WireException.class);
    }

    @Test
    void rejectsTrailingBytesAfterOneValue() {
        assertThatThrownBy(() -> SaltPack.unpack(HEX.parseHex("c0c0"))).isExactlyInstanceOf(WireException.class)
                .hasMessageContaining("trailing");
        assertThat(SaltPack.unpackAll(HEX.parseHex("c0c0"))).containsExactly(null, null);
    }

    @Test
    void rejectsEmptyInputAndTheNeverUsedByte() {
        assertThatThrownBy(() -> SaltPack.unpack(new byte[0])).isExactlyInstanceOf(WireException.class);
        assertThatThrownBy(() -> SaltPack.unpack(HEX.parseHex("c1"))).isExactlyInstanceOf(WireException.class);
        assertThatThrownBy(() -> SaltPack.unpack(HEX.parseHex("91c1"))).isExactlyInstanceOf(WireException.class);
        assertThat(SaltPack.unpackAll(new byte[0])).isEmpty();
    }

    @Test
    void rejectsADatetimeExtensionThatIsNotSaltsFormat() {
        // ext 78 of 24 bytes, but a month 13
        byte[] badMonth = HEX.parseHex("c7184e" + HEX.formatHex("20241329T12:34:56.789012".getBytes()));
        byte[] tooShort = HEX.parseHex("d44e00");

        assertThatThrownBy(() -> SaltPack.unpack(badMonth)).isExactlyInstanceOf(WireException.class);
        assertThatThrownBy(() -> SaltPack.unpack(tooShort)).isExactlyInstanceOf(WireException.class);
    }

    @Test
    void randomBytesDecodeOrFailWithWireExceptionOnly() {
        Random random = new Random(SEED);
        for (int i = 0; i < 4000; i++) {
            byte[] garbage = new byte[random.nextInt(64)];
            random.nextBytes(garbage);
            decodeOrWireException(garbage, "random case " + i + " of seed " + SEED);
        }
    }

    @Test
    void corruptedRealFramesDecodeOrFailWithWireExceptionOnly() {
        List<byte[]> frames = SaltPackCapturedFramesTest.msgpackFrames().stream().map(SaltVectors::bytes).toList();
        Random random = new Random(SEED);
        for (int i = 0; i < 3000; i++) {
            byte[] frame = frames.get(random.nextInt(frames.size())).clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                frame[random.nextInt(frame.length)] = (byte) random.nextInt(256);
            }
            decodeOrWireException(frame, "corruption case " + i + " of seed " + SEED);
        }
    }

    private static void decodeOrWireException(byte[] input, String label) {
        for (Function<byte[], Object> decode : List.<Function<byte[], Object>>of(SaltPack::unpack, SaltPack::unpackAll)) {
            try {
                decode.apply(input);
            } catch (WireException expected) {
                // the one permitted failure
            } catch (Throwable other) {
                fail(label + " threw " + other + " for input " + HEX.formatHex(input), other);
            }
        }
    }

    private static byte[] nestedArrays(int depth) {
        byte[] bytes = new byte[depth + 1];
        Arrays.fill(bytes, (byte) 0x91);
        bytes[depth] = (byte) 0xc0;
        return bytes;
    }
}
