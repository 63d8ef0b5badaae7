package io.jsalt.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's {@code nested} outputter (salt/output/nested.py, colours stripped), line for line. */
class NestedOutputterTest {

    private static String all(Map<String, Object> returns) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new NestedOutputter().all(out, returns);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String one(String minion, Object ret) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            new NestedOutputter().one(out, minion, ret);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void trueIsPrintedAsPythonPrintsIt() {
        assertThat(one("m1", true)).isEqualTo("m1:\n    True\n");
        assertThat(one("m1", false)).isEqualTo("m1:\n    False\n");
    }

    @Test
    void noneIsPrintedAsNone() {
        assertThat(all(map("m1", null))).isEqualTo("m1:\n    None\n");
    }

    @Test
    void aNoneReturnStreamedAsItArrivesIsPrintedAsNone() {
        // jsalt streams each return through one(); test.echo None makes a None return
        assertThat(one("m1", null)).isEqualTo("m1:\n    None\n");
    }

    @Test
    void numbersArePrintedPlain() {
        assertThat(one("m1", 42L)).isEqualTo("m1:\n    42\n");
        assertThat(one("m1", 3.5d)).isEqualTo("m1:\n    3.5\n");
        assertThat(one("m1", -1)).isEqualTo("m1:\n    -1\n");
    }

    @Test
    void largeFloatsArePrintedAsPythonPrintsThem() {
        // Python: str(12345678.9) == '12345678.9'
        assertThat(one("m1", 12345678.9d)).isEqualTo("m1:\n    12345678.9\n");
    }

    @Test
    void aMultiLineStringGetsALinePerLineAtTheSameIndent() {
        assertThat(one("m1", "Linux\nup 3 days\n")).isEqualTo(lines("m1:", "    Linux", "    up 3 days"));
    }

    @Test
    void blankLinesInsideAStringAreKept() {
        assertThat(one("m1", "a\n\nb")).isEqualTo(lines("m1:", "    a", "    ", "    b"));
    }

    @Test
    void windowsLineEndsSplitLikeUnixOnes() {
        assertThat(one("m1", "a\r\nb")).isEqualTo(lines("m1:", "    a", "    b"));
    }

    @Test
    void aCarriageReturnAloneEndsALineAsInPythonsSplitlines() {
        assertThat(one("m1", "10%\r100%")).isEqualTo(lines("m1:", "    10%", "    100%"));
    }

    @Test
    void anEmptyStringPrintsNoValueLine() {
        assertThat(one("m1", "")).isEqualTo("m1:\n");
    }

    @Test
    void aMapAtDepthIsIntroducedByDashesAndItsKeysAreSorted() {
        Map<String, Object> ret = map("zeta", 1L, "alpha", map("b", "x", "a", true));

        assertThat(one("m1", ret)).isEqualTo(lines(
                "m1:",
                "    ----------",
                "    alpha:",
                "        ----------",
                "        a:",
                "            True",
                "        b:",
                "            x",
                "    zeta:",
                "        1"));
    }

    @Test
    void topLevelMinionsAreSortedWithoutDashes() {
        assertThat(all(map("web-2", true, "db-1", true, "Web-3", false))).isEqualTo(lines(
                "Web-3:", "    False", "db-1:", "    True", "web-2:", "    True"));
    }

    @Test
    void anEmptyMapAtDepthIsJustDashes() {
        assertThat(one("m1", Map.of())).isEqualTo(lines("m1:", "    ----------"));
    }

    @Test
    void aListOfScalarsIsDashed() {
        assertThat(one("m1", List.of("a", 2L, true))).isEqualTo(lines("m1:", "    - a", "    - 2", "    - True"));
    }

    @Test
    void aListWithNoneInsideIsDashed() {
        assertThat(one("m1", Arrays.asList("a", null))).isEqualTo(lines("m1:", "    - a", "    - None"));
    }

    @Test
    void anEmptyListPrintsNothingUnderTheKey() {
        assertThat(one("m1", List.of())).isEqualTo("m1:\n");
    }

    @Test
    void aMultiLineStringInAListHangsUnderItsDash() {
        assertThat(one("m1", List.of("one\ntwo"))).isEqualTo(lines("m1:", "    - one", "      two"));
    }

    @Test
    void listsAndMapsInsideAListAreOpenedByABar() {
        List<Object> ret = new ArrayList<>();
        ret.add(map("name", "eth0", "up", true));
        ret.add(List.of(1L, 2L));
        ret.add("tail");

        assertThat(one("m1", ret)).isEqualTo(lines(
                "m1:",
                "    |_",
                "      ----------",
                "      name:",
                "          eth0",
                "      up:",
                "          True",
                "    |_",
                "      - 1",
                "      - 2",
                "    - tail"));
    }

    @Test
    void numericKeysAreSortedAsNumbersAsPythonSortsThem() {
        Map<Object, Object> ret = new LinkedHashMap<>();
        ret.put(10L, "ten");
        ret.put(9L, "nine");

        assertThat(one("m1", ret)).isEqualTo(lines("m1:", "    ----------", "    9:", "        nine", "    10:", "        ten"));
    }

    @Test
    void testArgReturnPrintsAsSaltPrintsIt() {
        Map<String, Object> ret = map("args", List.of(1L), "kwargs", map("two", 2L));

        assertThat(one("vector-minion", ret)).isEqualTo(lines(
                "vector-minion:",
                "    ----------",
                "    args:",
                "        - 1",
                "    kwargs:",
                "        ----------",
                "        two:",
                "            2"));
    }
}
