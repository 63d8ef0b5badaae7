package io.jsalt.cli.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A runner's return is printed bare, as salt-run prints it: no minion name above it. */
class RunnerOutputTest {
    private static String print(String out, Object ret) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            new RunnerOutput(out, 4).print(p, ret);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void nestedPrintsAMapsKeysAtTheLeftMargin() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("up", List.of("web-01", "web-02"));
        status.put("down", List.of("db-01"));

        assertThat(print("nested", status)).isEqualTo("down:\n    - db-01\nup:\n    - web-01\n    - web-02\n");
    }

    @Test
    void nestedPrintsAListAsDashedLinesAndTextAsItIs() {
        assertThat(print("nested", List.of("web-01", "web-02"))).isEqualTo("- web-01\n- web-02\n");
        assertThat(print("nested", "two\nlines")).isEqualTo("two\nlines\n");
        assertThat(print("nested", List.of(Map.of("a", 1)))).isEqualTo("|_\n  ----------\n  a:\n      1\n");
    }

    @Test
    void jsonYamlRawAndTxtPrintTheValueItself() {
        assertThat(print("json", List.of("web-01"))).isEqualTo("[\n    \"web-01\"\n]\n");
        assertThat(print("json", Map.of("up", List.of()))).isEqualTo("{\n    \"up\": []\n}\n");
        assertThat(print("yaml", List.of("web-01"))).isEqualTo("- web-01\n");
        assertThat(print("raw", List.of("web-01", true))).isEqualTo("['web-01', True]\n");
        assertThat(print("txt", "done")).isEqualTo("done\n");
        assertThat(print("quiet", List.of("web-01"))).isEmpty();
    }

    @Test
    void aRunnerThatNamesTheHighstateOutputterIsPrintedWithItUnlessOutChoseAnother() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("__id__", "motd");
        state.put("__run_num__", 0);
        state.put("name", "motd");
        state.put("result", true);
        state.put("changes", Map.of());
        state.put("comment", "Success!");
        state.put("start_time", "01:02:03.000004");
        state.put("duration", 0.5);
        Map<String, Object> lookedUp = Map.of("outputter", "highstate", "data",
                Map.of("web1", Map.of("test_|-motd_|-motd_|-nop", state)));

        assertThat(print(null, lookedUp)).startsWith("web1:\n----------\n          ID: motd\n    Function: test.nop\n")
                .contains("Summary for web1\n");
        // --out json prints the data alone, as salt-run does
        assertThat(print("json", lookedUp)).startsWith("{\n    \"web1\": {\n        \"test_|-motd_|-motd_|-nop\": {");
    }

    @Test
    void anUnknownOutputterIsRefusedUpFront() {
        assertThatThrownBy(() -> new RunnerOutput("fancy", 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fancy");
    }
}
