package io.jsalt.minion.grains;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.modules.MinionModules;
import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.MasterFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** grains.setval and friends against the minion's real grains file: a broken file is never wiped, no update is lost. */
class GrainsFileWritesTest {
    @TempDir
    Path root;

    private MinionConfig config;
    private MinionModules modules;

    @BeforeEach
    void start() throws Exception {
        config = MinionConfig.builder(root).id("web-1").build();
        Files.createDirectories(config.grainsFile().getParent());
        modules = new MinionModules(config, new MinionGrains(() -> Map.of("os", "TestOS"),
                new YamlGrainsFile(config.grainsFile()), Map.of()), MasterFiles.NONE, List.of());
    }

    @AfterEach
    void stop() {
        modules.close();
    }

    private CallResult call(String fun, Object... args) {
        return modules.current().call(fun, List.of(args));
    }

    @Test
    void aGrainsFileThatIsNotValidYamlIsLeftAloneAndTheWriteFails() throws Exception {
        String broken = "roles: [web, db\nrack: 7\n";
        Files.writeString(config.grainsFile(), broken);

        CallResult result = call("grains.setval", "rack", 8);

        assertThat(result.success()).isFalse();
        assertThat((String) result.ret()).startsWith("ERROR: Unable to read existing grains file " + config.grainsFile());
        assertThat(Files.readString(config.grainsFile())).isEqualTo(broken);
    }

    @Test
    void aGrainsFileThatIsNotAMappingOrTooLargeIsLeftAloneAndTheWriteFails() throws Exception {
        Files.writeString(config.grainsFile(), "- just\n- a list\n");
        assertThat(call("grains.setval", "rack", 8).success()).isFalse();
        assertThat(Files.readString(config.grainsFile())).isEqualTo("- just\n- a list\n");

        String huge = "big: '" + "x".repeat(5 * 1024 * 1024) + "'\n";
        Files.writeString(config.grainsFile(), huge);
        assertThat((String) call("grains.setvals", Map.of("rack", 8)).ret()).contains("larger than");
        assertThat(Files.size(config.grainsFile())).isEqualTo(huge.length());
    }

    @Test
    void anAbsentGrainsFileIsCreatedByTheFirstWrite() throws Exception {
        assertThat(call("grains.setval", "rack", 8).success()).isTrue();

        assertThat(YamlGrainsFile.parse(Files.readString(config.grainsFile()))).containsEntry("rack", 8);
    }

    @Test
    void concurrentSetvalJobsLoseNoUpdate() throws Exception {
        ModuleRegistry registry = modules.current();
        ExecutorService jobs = Executors.newFixedThreadPool(8);
        try {
            List<Future<CallResult>> calls = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String key = "k" + i;
                calls.add(jobs.submit(() -> registry.call("grains.setval", List.of(key, 1))));
            }
            for (Future<CallResult> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS).success()).isTrue();
            }
        } finally {
            jobs.shutdownNow();
        }

        Map<String, Object> stored = YamlGrainsFile.parse(Files.readString(config.grainsFile()));
        assertThat(stored).hasSize(200);
    }
}
