package io.jsalt.transport.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** known-answer/e-payload-dumps.json: salt.payload.dumps of Salt 3006.8, both packings. */
class SaltPackKnownAnswerTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final Map<String, Object> VECTOR = SaltVectors.json("known-answer/e-payload-dumps.json");

    /** The vector's input, built in Java rather than read back from the JSON, so the test states the mapping. */
    private static Map<String, Object> saltInput() {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("str", "h\u00e9llo");
        input.put("bytes", new byte[] {0x00, 0x01, (byte) 0xfe, (byte) 0xff});
        input.put("int", 42L);
        input.put("neg", -7L);
        input.put("big", 1099511627776L);
        input.put("float", 1.5);
        input.put("list", Arrays.asList(1L, "two", 3.0, null));
        input.put("nested", Map.of("a", Map.of("b", List.of(true, false))));
        input.put("none", null);
        input.put("true", true);
        input.put("dt", LocalDateTime.of(2024, 4, 29, 12, 34, 56, 789_012_000));
        return input;
    }

    @Test
    void theJavaInputIsTheVectorsInput() {
        assertThat(SaltVectors.toVectorJson(saltInput())).isEqualTo(VECTOR.get("input"));
    }

    @Test
    void packsLikeSaltPayloadDumpsOnTheNetwork() {
        assertThat(HEX.formatHex(SaltPack.pack(saltInput()))).isEqualTo(VECTOR.get("dumps_hex"));
    }

    @Test
    void packsLikeSaltPayloadDumpsWithBinTypeOnTheEventBus() {
        assertThat(HEX.formatHex(SaltPack.packBinType(saltInput())))
                .isEqualTo(VECTOR.get("dumps_use_bin_type_true_hex"));
    }

    @Test
    void packsTheInputReadFromTheJsonTheSameWay() {
        Object fromJson = SaltVectors.toJava(VECTOR.get("input"));
        assertThat(HEX.formatHex(SaltPack.pack(fromJson))).isEqualTo(VECTOR.get("dumps_hex"));
    }

    @Test
    void unpacksBothPackingsToWhatSaltPayloadLoadsReturns() {
        for (String key : List.of("dumps_hex", "dumps_use_bin_type_true_hex")) {
            Object decoded = SaltPack.unpack(HEX.parseHex((String) VECTOR.get(key)));
            assertThat(SaltVectors.toVectorJson(decoded)).as(key).isEqualTo(VECTOR.get("loads_of_dumps"));
            assertThat(Wire.asMap(decoded).get("bytes")).as(key).isInstanceOf(byte[].class);
            assertThat(Wire.asMap(decoded).get("dt")).as(key).isInstanceOf(LocalDateTime.class);
        }
    }

    @Test
    void packsEverySimpleValueLikeSalt() {
        Map<String, Object> simpleValues = new LinkedHashMap<>();
        simpleValues.put("True", true);
        simpleValues.put("None", null);
        simpleValues.put("empty_str", "");
        simpleValues.put("str_32_chars", "0123456789abcdef0123456789abcdef");
        simpleValues.put("bytes_3", "abc".getBytes(StandardCharsets.US_ASCII));

        Map<String, Object> expected = Wire.map(VECTOR, "simple");
        assertThat(simpleValues.keySet()).as("every simple vector has a Java value").isEqualTo(expected.keySet());
        simpleValues.forEach((name, value) ->
                assertThat(HEX.formatHex(SaltPack.pack(value))).as(name).isEqualTo(expected.get(name)));
    }
}
