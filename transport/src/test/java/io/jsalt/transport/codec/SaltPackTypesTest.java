package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How each Java type is packed and unpacked, checked against what Python's msgpack emits. */
class SaltPackTypesTest {

    private static final HexFormat HEX = HexFormat.of();

    private static String packHex(Object value) {
        return HEX.formatHex(SaltPack.pack(value));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "0, 00", "127, 7f", "128, cc80", "255, ccff", "256, cd0100", "65535, cdffff", "65536, ce00010000",
        "4294967295, ceffffffff", "4294967296, cf0000000100000000", "9223372036854775807, cf7fffffffffffffff",
        "-1, ff", "-32, e0", "-33, d0df", "-128, d080", "-129, d1ff7f", "-32768, d18000", "-32769, d2ffff7fff",
        "-2147483648, d280000000", "-2147483649, d3ffffffff7fffffff", "-9223372036854775808, d38000000000000000"})
    void packsIntegersInTheSmallestFormPythonWouldUse(long value, String hex) {
        assertThat(packHex(value)).isEqualTo(hex);
        assertThat(packHex(BigInteger.valueOf(value))).isEqualTo(hex);
        assertThat(SaltPack.unpack(HEX.parseHex(hex))).isEqualTo(value);
    }

    @Test
    void packsSmallerJavaIntegerTypesLikeLong() {
        assertThat(packHex((byte) -5)).isEqualTo("fb");
        assertThat(packHex((short) 300)).isEqualTo("cd012c");
        assertThat(packHex(70000)).isEqualTo("ce00011170");
    }

    @Test
    void keepsUint64AboveLongMaxAsBigInteger() {
        BigInteger max = new BigInteger("18446744073709551615");

        assertThat(packHex(max)).isEqualTo("cfffffffffffffffff");
        assertThat(SaltPack.unpack(SaltPack.pack(max))).isEqualTo(max);
        assertThat(SaltPack.unpack(HEX.parseHex("cf0000000000000001"))).isEqualTo(1L);
    }

    @Test
    void sendsIntegersBeyondMsgpackAsDecimalStringsLikeSalt() {
        BigInteger jidLike = new BigInteger("18446744073709551616");
        BigInteger veryNegative = BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE);

        assertThat(SaltPack.unpack(SaltPack.pack(jidLike))).isEqualTo("18446744073709551616");
        assertThat(SaltPack.unpack(SaltPack.pack(veryNegative))).isEqualTo("-9223372036854775809");
    }

    @Test
    void packsEveryFloatAsFloat64AndReadsFloat32AsDouble() {
        assertThat(packHex(1.5)).isEqualTo("cb3ff8000000000000");
        assertThat(packHex(1.5f)).isEqualTo("cb3ff8000000000000");
        assertThat(SaltPack.unpack(HEX.parseHex("ca3fc00000"))).isEqualTo(1.5);
    }

    @Test
    void neverUsesStr8OrBinOnTheNetwork() {
        assertThat(packHex("a".repeat(31))).startsWith("bf");
        assertThat(packHex("a".repeat(32))).startsWith("da0020");
        assertThat(packHex("a".repeat(255))).startsWith("da00ff");
        assertThat(packHex("a".repeat(65535))).startsWith("daffff");
        assertThat(packHex("a".repeat(65536))).startsWith("db00010000");
        assertThat(packHex(new byte[40])).startsWith("da0028");
        assertThat(packHex(new byte[3])).isEqualTo("a3000000");
        assertThat(packHex("\u00e9".repeat(20))).as("length is in UTF-8 bytes").startsWith("da0028");
    }

    @Test
    void usesStr8AndBinOnTheEventBus() {
        assertThat(HEX.formatHex(SaltPack.packBinType("a".repeat(32)))).startsWith("d920");
        assertThat(HEX.formatHex(SaltPack.packBinType("abc"))).isEqualTo("a3616263");
        assertThat(HEX.formatHex(SaltPack.packBinType(new byte[] {1, 2}))).isEqualTo("c4020102");
        assertThat(HEX.formatHex(SaltPack.packBinType(new byte[300]))).startsWith("c5012c");
    }

    @Test
    void readsRawAsTextOnlyWhenItIsValidUtf8() {
        assertThat(SaltPack.unpack(HEX.parseHex("a568c3a96c6c"))).isEqualTo("h\u00e9ll");
        assertThat(SaltPack.unpack(HEX.parseHex("a2c328"))).isEqualTo(new byte[] {(byte) 0xc3, 0x28});
        // an encoded surrogate (CESU-8) and an overlong slash are not valid UTF-8 either
        assertThat(SaltPack.unpack(HEX.parseHex("a3eda080"))).isInstanceOf(byte[].class);
        assertThat(SaltPack.unpack(HEX.parseHex("a2c0af"))).isInstanceOf(byte[].class);
        assertThat(SaltPack.unpack(HEX.parseHex("d903616263"))).isEqualTo("abc");
        // a sequence cut short at the end, and a character beyond the BMP (two chars from four bytes)
        assertThat(SaltPack.unpack(HEX.parseHex("a3612e82"))).isInstanceOf(byte[].class);
        assertThat(SaltPack.unpack(HEX.parseHex("a4f09f9880"))).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void readsRandomRawValuesExactlyAsTheJdksStrictUtf8DecoderDoes() throws Exception {
        Random random = new Random(20);
        for (int i = 0; i < 20_000; i++) {
            byte[] raw = new byte[random.nextInt(12)];
            for (int j = 0; j < raw.length; j++) {
                // mostly bytes that start or continue multi-byte sequences, where the edge cases are
                raw[j] = (byte) (random.nextInt(4) == 0 ? random.nextInt(128) : 0x80 + random.nextInt(128));
            }
            Object expected;
            try {
                expected = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
            } catch (CharacterCodingException e) {
                expected = raw;
            }
            byte[] packed = new byte[raw.length + 1];
            packed[0] = (byte) (0xa0 | raw.length);
            System.arraycopy(raw, 0, packed, 1, raw.length);
            assertThat(SaltPack.unpack(packed)).as(HEX.formatHex(raw)).isEqualTo(expected);
        }
    }

    @Test
    void readsEveryRawValueOfOneMessageOnItsOwnWhetherAsciiOrNot() {
        // ASCII control bytes are text; a value that is not UTF-8 does not spoil the next one, which is
        Object decoded = SaltPack.unpack(HEX.parseHex("94" + "a300417f" + "a2c328" + "a2c3a9" + "a161"));
        assertThat(decoded).asList().containsExactly("\u0000A\u007f", new byte[] {(byte) 0xc3, 0x28}, "\u00e9", "a");
    }

    @Test
    void readsBinAsBytesEvenWhenItIsValidUtf8() {
        assertThat(SaltPack.unpack(HEX.parseHex("c403616263"))).isEqualTo("abc".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void refusesToPackAStringWithALoneSurrogate() {
        assertThatThrownBy(() -> SaltPack.pack("bad \ud800 text")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void packsDatetimesAsSaltsExtension78() {
        LocalDateTime when = LocalDateTime.of(2026, 11, 22, 6, 45, 5, 404_866_000);

        byte[] packed = SaltPack.pack(when);

        assertThat(HEX.formatHex(packed)).isEqualTo("c7184e" + HEX.formatHex("20261122T06:45:05.404866".getBytes()));
        assertThat(SaltPack.unpack(packed)).isEqualTo(when);
        assertThat(SaltPack.unpack(SaltPack.pack(when.withNano(404_866_999)))).as("Python keeps microseconds")
                .isEqualTo(when);
    }

    @Test
    void keepsOtherExtensionsUnchanged() {
        ExtValue ext = new ExtValue(5, new byte[] {1, 2, 3});
        ExtValue negative = new ExtValue(-1, new byte[] {0, 0, 0, 1});

        assertThat(packHex(ext)).isEqualTo("c70305010203");
        assertThat(SaltPack.unpack(SaltPack.pack(ext))).isEqualTo(ext);
        assertThat(SaltPack.unpack(SaltPack.pack(negative))).isEqualTo(negative);
        assertThat(ext).isEqualTo(new ExtValue(5, new byte[] {1, 2, 3})).hasSameHashCodeAs(new ExtValue(5, new byte[] {1, 2, 3}));
        assertThat(ext).isNotEqualTo(new ExtValue(6, new byte[] {1, 2, 3}));
    }

    @Test
    void packsCollectionsAndObjectArraysAsArraysAndKeepsMapOrder() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("z", 1);
        map.put(7L, List.of());
        map.put(null, new Object[] {true, null});
        map.put("set", new LinkedHashSet<>(List.of("x", "y")));

        @SuppressWarnings("unchecked")
        Map<Object, Object> decoded = (Map<Object, Object>) SaltPack.unpack(SaltPack.pack(map));

        assertThat(packHex(map)).isEqualTo("84a17a010790c092c3c0a373657492a178a179");
        assertThat(decoded).isInstanceOf(LinkedHashMap.class);
        assertThat(decoded.keySet()).containsExactly("z", 7L, null, "set");
        assertThat(decoded.get("set")).isInstanceOf(ArrayList.class).isEqualTo(List.of("x", "y"));
    }

    @Test
    void refusesTypesSaltCannotRepresentAndNamesThem() {
        assertThatThrownBy(() -> SaltPack.pack(Map.of("id", UUID.randomUUID())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.util.UUID");
        assertThatThrownBy(() -> SaltPack.pack(new int[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[I");
    }

    @Test
    void refusesToPackAValueThatContainsItself() {
        List<Object> loop = new ArrayList<>();
        loop.add(loop);

        assertThatThrownBy(() -> SaltPack.pack(loop)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deeper than 100");
    }
}
