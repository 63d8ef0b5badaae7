package io.jsalt.minion.grains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grains layered as Salt layers them, and the grains file written atomically and read back at once. */
class MinionGrainsTest {
    @TempDir
    Path dir;

    private MinionGrains grains(Map<String, Object> core, Map<String, Object> config) {
        return new MinionGrains(() -> core, new YamlGrainsFile(dir.resolve("grains")), config);
    }

    @Test
    void theGrainsFileOverridesCoreGrainsAndTheConfigOverridesBoth() throws Exception {
        Files.writeString(dir.resolve("grains"), "roles:\n  - web\nos: FileOS\nrack: 7\n");

        MinionGrains grains = grains(Map.of("os", "Debian", "kernel", "Linux"), Map.of("rack", 9));

        assertThat(grains.get()).containsEntry("os", "FileOS").containsEntry("kernel", "Linux")
                .containsEntry("roles", List.of("web")).containsEntry("rack", 9);
    }

    @Test
    void aWriteToTheGrainsFileIsSeenByTheNextRead() throws Exception {
        MinionGrains grains = grains(Map.of("os", "Debian"), Map.of());

        grains.file().write(Map.of("roles", List.of("db"), "nested", Map.of("a", 1)));

        assertThat(grains.get()).containsEntry("roles", List.of("db")).containsEntry("nested", Map.of("a", 1));
        assertThat(grains.file().read()).containsEntry("roles", List.of("db"));
        assertThat(dir.resolve("grains")).content().contains("roles:");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file is left").containsExactly("grains");
        }
    }

    @Test
    void refreshCollectsTheCoreGrainsAgain() {
        AtomicInteger collected = new AtomicInteger();
        MinionGrains grains = new MinionGrains(() -> Map.of("count", collected.incrementAndGet()),
                new YamlGrainsFile(dir.resolve("grains")), Map.of());

        grains.refresh();

        assertThat(grains.get()).containsEntry("count", 2);
    }

    @Test
    void aGrainsFileThatIsNotAMappingIsIgnoredAndAnAbsentOneIsEmpty() throws Exception {
        assertThat(new YamlGrainsFile(dir.resolve("absent")).read()).isEmpty();

        Files.writeString(dir.resolve("grains"), "- just\n- a list\n");

        assertThat(grains(Map.of("os", "Debian"), Map.of()).get()).containsOnlyKeys("os");
    }

    @Test
    void aGrainsFileCannotBuildObjects() throws Exception {
        Files.writeString(dir.resolve("grains"), "evil: !!python/object/apply:os.system ['id']\n");

        assertThat(new YamlGrainsFile(dir.resolve("grains")).read()).isEmpty();
    }

    @Test
    void writeFailsWithACommandErrorWhenTheFolderCannotBeCreated() throws Exception {
        Files.writeString(dir.resolve("file"), "x");
        YamlGrainsFile file = new YamlGrainsFile(dir.resolve("file").resolve("grains"));
        Map<String, Object> grains = new LinkedHashMap<>();
        grains.put("a", 1);

        assertThatThrownBy(() -> file.write(grains)).isInstanceOf(CommandExecutionException.class)
                .hasMessageContaining("cannot write the grains file");
    }
}
