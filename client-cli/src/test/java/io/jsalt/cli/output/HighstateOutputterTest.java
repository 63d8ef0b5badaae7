package io.jsalt.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The highstate outputter against Salt 3006.8's own: {@code highstate/cases.json} holds state runs that
 * salt-call made (and variations of them) with the options of each case, {@code highstate/expected.json}
 * what salt.output.out_format(data, "highstate", opts) printed for each, colours off. The e2e suite runs
 * Salt's outputter live over the same cases (HighstateOutputVsSaltTest).
 */
class HighstateOutputterTest {
    static Stream<Arguments> saltCases() throws IOException {
        List<Object> cases = read("highstate/cases.json");
        List<Object> expected = read("highstate/expected.json");
        List<Arguments> all = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Map<?, ?> c = (Map<?, ?>) cases.get(i);
            all.add(Arguments.of(c.get("name"), c.get("data"), c.get("opts"), expected.get(i)));
        }
        return all.stream();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> read(String resource) throws IOException {
        try (InputStream in = HighstateOutputterTest.class.getClassLoader().getResourceAsStream(resource)) {
            return (List<Object>) new Load(LoadSettings.builder().build()).loadFromInputStream(in);
        }
    }

    /** Salt's opts as the outputter's options: state_output, state_verbose, state_output_profile. */
    static HighstateOutputter.Options options(Map<?, ?> opts) {
        return new HighstateOutputter.Options(opts.containsKey("state_output") ? String.valueOf(opts.get("state_output")) : "full",
                !Boolean.FALSE.equals(opts.get("state_verbose")), !Boolean.FALSE.equals(opts.get("state_output_profile")));
    }

    static String print(Object hostsAndData, HighstateOutputter.Options options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        HighstateOutputter outputter = new HighstateOutputter(Palette.NONE, options);
        ((Map<?, ?>) hostsAndData).forEach((host, data) -> outputter.one(out, (String) host, data, 0));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("saltCases")
    void printsWhatSaltPrints(String name, Object data, Map<?, ?> opts, String saltPrinted) {
        assertThat(print(data, options(opts))).isEqualTo(saltPrinted + "\n");
    }

    @Test
    void colouredAsSaltTheFailedStateRedAndTheHostWithIt() {
        Map<String, Object> failed = Map.of("test_|-x_|-x_|-fail_without_changes", Map.of("result", false, "comment", "no",
                "changes", Map.of(), "__run_num__", 0, "name", "x", "__id__", "x"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new HighstateOutputter(Palette.SALT, HighstateOutputter.Options.SALT_DEFAULTS)
                .one(new PrintStream(bytes, true, StandardCharsets.UTF_8), "m1", failed, 2);
        String text = bytes.toString(StandardCharsets.UTF_8);

        assertThat(text).startsWith(Palette.SALT.red() + "m1:" + Palette.SALT.end() + "\n" + Palette.SALT.red() + "----------");
        assertThat(text).contains(Palette.SALT.red() + "Failed:    1" + Palette.SALT.end());
    }

    @Test
    void aReturnThatIsNoStateRunIsShownNested() {
        Map<String, Object> notStates = Map.of("not a state key", Map.of("result", true, "__run_num__", 0));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new HighstateOutputter(Palette.NONE, HighstateOutputter.Options.SALT_DEFAULTS)
                .one(new PrintStream(bytes, true, StandardCharsets.UTF_8), "m1", notStates, 0);

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
                "m1:\n    ----------\n    not a state key:\n        ----------\n        __run_num__:\n            0\n        result:\n            True\n");
    }

    @Test
    void anUnknownStateOutputIsRefusedByName() {
        assertThatThrownBy(() -> new HighstateOutputter.Options("filter", true, true))
                .hasMessage("unknown state output 'filter' (full, terse, mixed, changes, each also with _id, e.g. terse_id)");
        assertThat(new HighstateOutputter.Options("Terse_ID", true, true).stateOutput()).isEqualTo("terse_id");
    }
}
