package io.jsalt.master.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salt's wheel {@code config.values}, {@code minions.connected} and {@code error.error}. */
class MasterWheelTest {
    @TempDir
    Path root;

    @Test
    void configValuesGivesTheFilesKeysAndTheEffectiveValuesUnderSaltsNames() throws IOException {
        Path conf = Files.createDirectories(root.resolve("conf"));
        Files.writeString(conf.resolve("master"), """
                ret_port: 45106
                file_roots:
                  base: [/srv/salt]
                rest_cherrypy:
                  port: 8000
                """);
        MasterConfig config = MasterConfig.load(conf);
        WheelFunctions wheel = new WheelFunctions(List.of(new MasterWheel(() -> config, List::of)));

        Map<?, ?> values = (Map<?, ?>) call(wheel, "config.values", Map.of());

        assertThat(values.get("ret_port")).isEqualTo(45106);
        assertThat(values.get("rest_cherrypy")).isEqualTo(Map.of("port", 8000)); // a key jsalt-api reads, as written
        assertThat(values.get("publish_port")).isEqualTo(config.publishPort()); // a default, as Salt's opts hold it
        assertThat(values.get("file_roots")).isEqualTo(Map.of("base", List.of(config.fileRoots().get("base").get(0).toString())));
        assertThat(values.get("conf_file")).isEqualTo(conf.resolve("master").toString());
        assertThat(values.get("auto_accept")).isEqualTo(false);
    }

    @Test
    void minionsConnectedIsWhatThePresenceSaysNow() {
        WheelFunctions wheel = new WheelFunctions(List.of(new MasterWheel(() -> null, () -> List.of("db1", "web1"))));

        assertThat(call(wheel, "minions.connected", Map.of())).isEqualTo(List.of("db1", "web1"));
    }

    @Test
    void errorErrorAnswersNothingOrFailsAsAsked() {
        WheelFunctions wheel = new WheelFunctions(List.of(new MasterWheel(() -> null, List::of)));

        assertThat(call(wheel, "error.error", Map.of())).isEqualTo(Map.of());
        assertThatThrownBy(() -> call(wheel, "error.error", Map.of("name", "Exception", "message", "This is an error.")))
                .isInstanceOf(RunnerException.class).hasMessage("Exception: This is an error.");
    }

    private static Object call(WheelFunctions wheel, String fun, Map<String, Object> kwargs) {
        RunnerFunction f = wheel.find(fun).orElseThrow();
        return f.body().call(f.signature().bind(List.of(), kwargs));
    }
}
