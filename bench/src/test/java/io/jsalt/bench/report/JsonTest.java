package io.jsalt.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void writesNestedMapsAndListsInInsertionOrderWithIndentation() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", 1000);
        m.put("ok", true);
        m.put("ms", 12.5);
        m.put("list", List.of(1, "two"));
        m.put("empty", Map.of());

        assertThat(Json.write(m)).isEqualTo("""
                {
                  "n": 1000,
                  "ok": true,
                  "ms": 12.5,
                  "list": [
                    1,
                    "two"
                  ],
                  "empty": {}
                }""");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(Json.write("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    @Test
    void writesWholeDoublesWithoutAFractionAndNotANumberAsNull() {
        assertThat(Json.write(List.of(3.0, Double.NaN))).isEqualTo("[\n  3,\n  null\n]");
    }

    @Test
    void writesNullAsNull() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("x", null);

        assertThat(Json.write(m)).isEqualTo("{\n  \"x\": null\n}");
    }
}
