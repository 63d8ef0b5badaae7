package io.jsalt.minion.modules;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.grains.GrainsRefresh;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.grains.YamlGrainsFile;
import io.jsalt.minion.testing.ModuleJarBuilder;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.MasterFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The minion's functions: built-ins plus synced jars, reloaded atomically while jobs keep theirs. */
class MinionModulesTest {
    @TempDir
    Path root;
    @TempDir
    Path work;

    private MinionConfig config() {
        return MinionConfig.builder(root).id("web-1").build();
    }

    private MinionGrains grains(MinionConfig config) {
        return new MinionGrains(() -> Map.of("os", "TestOS"), new YamlGrainsFile(config.grainsFile()), config.grains());
    }

    @Test
    void aJarSyncedIntoTheExtensionFolderIsCallableAfterAReload() throws Exception {
        MinionConfig config = config();
        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of())) {
            assertThat(modules.current().has("hello.world")).isFalse();

            ModuleJarBuilder.build(MinionModules.jarDir(config).resolve("hello.jar"), work, "hello", "world", "hi there");
            modules.reload();

            assertThat(modules.current().call("hello.world", List.of()).ret()).isEqualTo("hi there");
            assertThat(modules.current().has("test.ping")).as("the built-ins stay").isTrue();
        }
    }

    @Test
    void aJobThatStartedBeforeAReloadKeepsItsRegistry() throws Exception {
        MinionConfig config = config();
        ModuleJarBuilder.build(MinionModules.jarDir(config).resolve("hello.jar"), work, "hello", "world", "old");
        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of())) {
            ModuleSource.Lease running = modules.acquire();

            Files.delete(MinionModules.jarDir(config).resolve("hello.jar"));
            modules.reload();

            assertThat(modules.current().has("hello.world")).isFalse();
            assertThat(running.registry().call("hello.world", List.of()).ret())
                    .as("the old registry's class loader stays open while its job runs").isEqualTo("old");
            running.close();
        }
    }

    @Test
    void functionsSeeTheGrainsFileAndAWriteToIt() throws Exception {
        MinionConfig config = config();
        Files.createDirectories(config.grainsFile().getParent());
        Files.writeString(config.grainsFile(), "roles: [web]\n");
        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of())) {
            assertThat(modules.current().call("grains.get", List.of("roles")).ret()).isEqualTo(List.of("web"));

            modules.current().context().grainsFile().orElseThrow().write(Map.of("roles", List.of("db")));

            assertThat(modules.current().call("grains.get", List.of("roles")).ret()).isEqualTo(List.of("db"));
            assertThat(modules.current().call("grains.get", List.of("os")).ret()).isEqualTo("TestOS");
        }
    }

    @Test
    void theOneShotRegistryOfJsaltCallHasTheJarsAndTheGrainsFileButCannotReload() throws Exception {
        MinionConfig config = config();
        ModuleJarBuilder.build(MinionModules.jarDir(config).resolve("hello.jar"), work, "hello", "world", "from a jar");
        Files.createDirectories(config.grainsFile().getParent());
        Files.writeString(config.grainsFile(), "rack: 12\n");

        try (ModuleRegistry registry = MinionModules.build(config, MasterFiles.NONE)) {
            assertThat(registry.call("hello.world", List.of()).ret()).isEqualTo("from a jar");
            assertThat(registry.context().grains()).containsEntry("rack", 12).containsEntry("id", "web-1");
            assertThat(registry.context().grainsFile()).isPresent();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> registry.context().reloadModules())
                    .hasMessageContaining("not available");
        }
    }

    @Test
    void aJarBuiltForANewerJavaNeitherStopsTheStartNorAReload() throws Exception {
        MinionConfig config = config();
        ModuleJarBuilder.buildForFutureJava(MinionModules.jarDir(config).resolve("future.jar"), work.resolve("future"),
                "future", "world");
        ModuleJarBuilder.build(MinionModules.jarDir(config).resolve("hello.jar"), work.resolve("hello"), "hello", "world",
                "still here");

        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of())) {
            assertThat(modules.current().call("hello.world", List.of()).ret()).isEqualTo("still here");
            assertThat(modules.current().has("future.world")).isFalse();

            modules.reload();

            assertThat(modules.current().call("hello.world", List.of()).ret()).isEqualTo("still here");
            assertThat(modules.current().has("test.ping")).isTrue();
        }
        try (ModuleRegistry registry = MinionModules.build(config, MasterFiles.NONE)) {
            assertThat(registry.has("hello.world")).isTrue();
        }
    }

    @Test
    void aGrainsWriteAsksTheMinionToRefreshItsGrainsWithRefreshPillarAsGiven() throws Exception {
        MinionConfig config = config();
        List<Boolean> refreshes = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of(),
                refreshes::add)) {
            modules.current().call("grains.setval", List.of("rack", 12));
            modules.current().call("grains.setval", List.of("row", 3, Map.of("__kwarg__", true, "refresh_pillar", false)));

            assertThat(refreshes).containsExactly(true, false);
            assertThat(modules.current().call("grains.get", List.of("rack")).ret()).isEqualTo(12);
        }
    }

    @Test
    void functionsMatchTargetsWithTheMinionsOwnIdGrainsAndPillar() throws Exception {
        MinionConfig config = config();
        try (MinionModules modules = new MinionModules(config, grains(config), MasterFiles.NONE, List.of(),
                GrainsRefresh.LOCAL, () -> Map.of("role", "db"), (override, saltenv, pillarenv) -> Map.of("role", saltenv))) {
            var context = modules.current().context();
            Map<String, Object> none = Map.of();
            // a state run's pillar comes from the master, not from memory
            assertThat(context.compilePillar(Map.of(), "dev", null)).isEqualTo(Map.of("role", "dev"));
            assertThat(context.targets("glob", "web-*", none)).isTrue();
            assertThat(context.targets("glob", "db-*", none)).isFalse();
            assertThat(context.targets("grain", "os:TestOS", none)).isTrue();
            assertThat(context.targets("grain", "os:Other", none)).isFalse();
            assertThat(context.targets("pillar", "role:db", none)).isTrue();
            assertThat(context.targets("list", List.of("a", "web-1"), none)).isTrue();
            assertThat(context.targets("compound", "G@os:TestOS and not I@role:web", none)).isTrue();
            assertThat(context.targets("pcre", "^web-\\d$", none)).isTrue();
            assertThat(context.targets("nodegroup", "webs", Map.of("webs", "web-*"))).isTrue();
            assertThat(context.targets("compound", "N@dbs or db-2", Map.of("dbs", List.of("db-1")))).isFalse();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> context.targets("nodegroup", "web", none))
                    .isInstanceOf(io.jsalt.modules.api.CommandExecutionException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> context.targets("bogus", "x", none))
                    .isInstanceOf(io.jsalt.modules.api.CommandExecutionException.class).hasMessageContaining("bogus");
        }
    }
}
