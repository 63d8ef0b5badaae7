package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.output.HighstateOutputter;
import io.jsalt.cli.output.Json;
import io.jsalt.cli.output.Palette;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * jsalt's highstate outputter against Salt 3006.8's, run live: a state run that a real {@code salt-call
 * --local} makes now, and the cases kept for the unit test (client-cli's highstate/cases.json), each shown
 * by salt.output's highstate outputter in Salt's own Python and by jsalt's; the texts must be equal.
 */
@Tag("interop")
class HighstateOutputVsSaltTest {
    private static final Path KEPT_CASES = Path.of("..", "client-cli", "src", "test", "resources", "highstate", "cases.json");

    @Test
    void everyCaseAndAFreshSaltCallRunPrintAsSaltPrintsThem(@TempDir Path tmp) throws Exception {
        try (Processes processes = new Processes()) {
            List<Object> cases = new ArrayList<>(load(Files.readString(KEPT_CASES)));
            Map<?, ?> fresh = freshStateRun(processes, tmp);
            cases.add(Map.of("name", "fresh salt-call run", "data", fresh, "opts", Map.of()));
            cases.add(Map.of("name", "fresh salt-call run, changes", "data", fresh, "opts", Map.of("state_output", "changes")));
            Path casesFile = tmp.resolve("cases.json");
            Files.writeString(casesFile, Json.write(cases, 0));
            Path oracle = tmp.resolve("highstate_oracle.py");
            try (var in = getClass().getResourceAsStream("/interop/highstate_oracle.py")) {
                Files.copy(in, oracle);
            }
            Map<String, String> env = RealSalt.env();
            ProcessBuilder python = new ProcessBuilder(env.get("PYTHON"), oracle.toString(), casesFile.toString());
            python.environment().put("PYTHONPATH", env.get("PYTHONPATH"));
            python.environment().put("PYTHONWARNINGS", "ignore");
            Processes.Result salt = processes.run(python, 120);
            assertThat(salt.exitCode()).as(salt.toString()).isZero();
            List<Object> saltPrinted = load(salt.stdout());

            assertThat(saltPrinted).hasSize(cases.size());
            for (int i = 0; i < cases.size(); i++) {
                Map<?, ?> c = (Map<?, ?>) cases.get(i);
                assertThat(jsaltPrints((Map<?, ?>) c.get("data"), (Map<?, ?>) c.get("opts")))
                        .as("case '%s'", c.get("name")).isEqualTo(saltPrinted.get(i) + "\n");
            }
        }
    }

    /** salt-call --local state.apply on a small tree: a file made, a failure, a command's output, a nop. */
    private static Map<?, ?> freshStateRun(Processes processes, Path tmp) throws Exception {
        Path srv = Files.createDirectories(tmp.resolve("srv/demo"));
        Path target = Files.createDirectories(tmp.resolve("target"));
        Files.writeString(srv.resolve("init.sls"), String.join("\n",
                "made:", "  file.managed:", "    - name: " + target.resolve("made.conf"), "    - contents: made by salt",
                "nothing:", "  test.nop", "broken:", "  test.fail_without_changes", "echo:",
                "  cmd.run:", "    - name: printf 'one\\ntwo\\n'", ""));
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        Files.writeString(conf.resolve("minion"), String.join("\n", "root_dir: " + tmp.resolve("root"), "file_client: local",
                "file_roots:", "  base:", "    - " + tmp.resolve("srv"), "id: local", "enable_fqdns_grains: False", ""));
        Processes.Result run = processes.run(RealSalt.tool("salt-call", List.of("-c", conf.toString(), "--local", "--out", "json",
                "state.apply", "demo")), 180);
        assertThat(run.stdout()).as(run.toString()).contains("file_|-made_|-");
        return (Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(run.stdout());
    }

    private static String jsaltPrints(Map<?, ?> hosts, Map<?, ?> opts) {
        HighstateOutputter.Options options = new HighstateOutputter.Options(
                opts.containsKey("state_output") ? String.valueOf(opts.get("state_output")) : "full",
                !Boolean.FALSE.equals(opts.get("state_verbose")), !Boolean.FALSE.equals(opts.get("state_output_profile")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        HighstateOutputter outputter = new HighstateOutputter(Palette.NONE, options);
        hosts.forEach((host, data) -> outputter.one(out, (String) host, data, 0));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> load(String json) {
        Object parsed = new Load(LoadSettings.builder().build()).loadFromString(json);
        return parsed instanceof List<?> l ? (List<Object>) l : List.of(parsed);
    }
}
