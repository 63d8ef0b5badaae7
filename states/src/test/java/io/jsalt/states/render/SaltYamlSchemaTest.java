package io.jsalt.states.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SaltYamlSchemaTest {
    /**
     * Each value as Salt 3006.8 reads it: {@code salt.utils.yamlloader.load} on this same text, run with the
     * Python of ../shared/salt, printed {@code {'a': False, 'b': True, 'c': False, 'd': None, 'e': 755, 'f': 5,
     * 'g': 31, 'h': 1000, 'i': 685230, 'j': 1.5, 'k': 0.5, 'l': '1e3', 'm': '2024-01-01', 'n': -493, 'o': '0789',
     * 'p': inf, 'q': 1000.0, 'r': None, 's': 'y', 't': 0, 'u': 0, 'v': '0755', 'w': 12, 'x': 90.5}}.
     */
    @Test
    void plainScalarsReadAsSaltsYamlLoaderReadsThem() {
        Object data = DataRenderer.load("""
                a: False
                b: yes
                c: off
                d: ~
                e: 0755
                f: 0b101
                g: 0x1F
                h: 1_000
                i: 190:20:30
                j: 1.5
                k: .5
                l: 1e3
                m: 2024-01-01
                n: -0755
                o: 0789
                p: .inf
                q: 1.0e+3
                r: Null
                s: y
                t: 0
                u: 00
                v: "0755"
                w: +12
                x: 1:30.5
                """, "yaml", "t.sls");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("a", false);
        expected.put("b", true);
        expected.put("c", false);
        expected.put("d", null);
        expected.put("e", 755);
        expected.put("f", 5);
        expected.put("g", 31);
        expected.put("h", 1000);
        expected.put("i", 685230);
        expected.put("j", 1.5);
        expected.put("k", 0.5);
        expected.put("l", "1e3");
        expected.put("m", "2024-01-01");
        expected.put("n", -493);
        expected.put("o", "0789");
        expected.put("p", Double.POSITIVE_INFINITY);
        expected.put("q", 1000.0);
        expected.put("r", null);
        expected.put("s", "y");
        expected.put("t", 0);
        expected.put("u", 0);
        expected.put("v", "0755");
        expected.put("w", 12);
        expected.put("x", 90.5);
        assertThat(data).isEqualTo(expected);
    }

    @Test
    void falseInAPillarFileIsTheBooleanFalseNotTheTextFalse() {
        Object pillar = DataRenderer.load("enabled: False\n", "yaml", "p.sls");
        assertThat(pillar).isEqualTo(Map.of("enabled", false));
    }

    @Test
    void jsonKeepsJsonsOwnScalars() {
        assertThat(DataRenderer.load("{\"a\": \"yes\", \"b\": true, \"c\": 0}", "json", "t.json"))
                .isEqualTo(Map.of("a", "yes", "b", true, "c", 0));
    }

    @Test
    void hugeIntegersStayExact() {
        assertThat(DataRenderer.load("a: 123456789012345678901234567890\nb: 4294967296\n", "yaml", "t.sls"))
                .isEqualTo(Map.of("a", new java.math.BigInteger("123456789012345678901234567890"), "b", 4294967296L));
    }
}
