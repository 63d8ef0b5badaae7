package io.jsalt.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON writer behind {@code --out json}: Python's json.dumps(indent=4) layout, valid JSON always. */
class JsonTest {

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void nestsWithAnIndentOfFourAsPythonsJsonDumps() {
        Map<String, Object> value = map("m1", map("a", 1L, "b", Arrays.asList(true, null, "x"), "c", Map.of(), "d", List.of()));

        assertThat(Json.write(value, 4)).isEqualTo(String.join("\n",
                "{",
                "    \"m1\": {",
                "        \"a\": 1,",
                "        \"b\": [",
                "            true,",
                "            null,",
                "            \"x\"",
                "        ],",
                "        \"c\": {},",
                "        \"d\": []",
                "    }",
                "}"));
    }

    @Test
    void withoutIndentWritesOneLine() {
        assertThat(Json.write(map("a", List.of(1L, 2L), "b", "c"), 0)).isEqualTo("{\"a\":[1,2],\"b\":\"c\"}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        String s = "say \"hi\"\\ \n\r\t\u0001 end";

        String json = Json.write(s, 4);

        assertThat(json).isEqualTo("\"say \\\"hi\\\"\\\\ \\n\\r\\t\\u0001 end\"");
        assertThat(io.jsalt.transport.codec.Json.parse(json)).isEqualTo(s);
    }

    @Test
    void keepsNonAsciiTextAsIs() {
        assertThat(Json.write("héllo ✓", 4)).isEqualTo("\"héllo ✓\"");
    }

    @Test
    void escapesAKeyLikeAValue() {
        assertThat(Json.write(map("a\"b", 1L), 0)).isEqualTo("{\"a\\\"b\":1}");
    }

    @Test
    void writesNumbersOfEveryWidth() {
        String json = Json.write(List.of(1, 2L, new BigInteger("18446744073709551615"), 2.5d, -0.5f), 0);

        assertThat(json).isEqualTo("[1,2,18446744073709551615,2.5,-0.5]");
    }

    @Test
    void writesNotANumberAsNullSoTheOutputStaysValidJson() {
        assertThat(Json.write(List.of(Double.NaN, Double.POSITIVE_INFINITY), 0)).isEqualTo("[null,null]");
    }

    @Test
    void writesBytesAsBase64Text() {
        assertThat(Json.write("hi".getBytes(StandardCharsets.US_ASCII), 0)).isEqualTo("\"aGk=\"");
    }

    @Test
    void whatItWritesParsesBackToTheSameValue() {
        Map<String, Object> value = map("m1", map("ret", List.of("a\tb", 1L, false), "n", null, "nested", map("x", List.of(map("y", "z")))));

        assertThat(io.jsalt.transport.codec.Json.parse(Json.write(value, 4))).isEqualTo(value);
        assertThat(io.jsalt.transport.codec.Json.parse(Json.write(value, 0))).isEqualTo(value);
    }
}
