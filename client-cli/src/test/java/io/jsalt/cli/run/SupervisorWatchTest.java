package io.jsalt.cli.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.transport.event.EventFrame;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which events supervisor.watch shows and how; the bus itself is read as jsalt-event reads it (e2e). */
class SupervisorWatchTest {
    private static EventFrame change(String minion, String process, String group, String state) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", process);
        data.put("group", group);
        data.put("state", state);
        data.put("pid", 42);
        data.put("since", 1_795_000_000.5);
        data.put("description", "pid 42, uptime 0:00:00");
        data.put("id", minion);
        return new EventFrame("jsalt/supervisor/" + minion + "/" + process + "/" + state, data);
    }

    private static SupervisorWatch watch(String... words) {
        return SupervisorWatch.from(RunnerRequest.of(SupervisorWatch.FUNCTION, io.jsalt.cli.jsalt.ArgParser.parse(List.of(words)), "root"));
    }

    @Test
    void showsTheStateChangesOfTheMinionsAndProgramAskedFor() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SupervisorWatch w = watch("tgt=web*", "program=app");

        assertThat(w.print(out, change("web1", "app", "app", "RUNNING"), false)).isTrue();
        assertThat(w.print(out, change("db1", "app", "app", "RUNNING"), false)).isFalse();
        assertThat(w.print(out, change("web1", "other", "other", "FATAL"), false)).isFalse();
        assertThat(w.print(out, new EventFrame("salt/job/1/ret/web1", Map.of("id", "web1")), false)).isFalse();
        assertThat(w.print(out, change("web2", "app_01", "app", "EXITED"), true)).isTrue();

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ web1 +app +RUNNING +pid 42, uptime 0:00:00");
        assertThat(lines.get(1)).startsWith("{\"minion\":\"web2\",\"process\":\"app_01\",").contains("\"state\":\"EXITED\"");
    }

    @Test
    void refusesWhatItDoesNotTake() {
        assertThatThrownBy(() -> watch("web1")).isInstanceOf(CliException.class).hasMessageContaining("keyword arguments only");
        assertThatThrownBy(() -> watch("minion=web1")).isInstanceOf(CliException.class).hasMessageContaining("'minion'");
        assertThatThrownBy(() -> watch("count=-1")).isInstanceOf(CliException.class).hasMessageContaining("count");
    }
}
