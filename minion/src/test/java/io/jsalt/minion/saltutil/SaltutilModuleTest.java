package io.jsalt.minion.saltutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.files.RemoteMasterFiles;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.grains.YamlGrainsFile;
import io.jsalt.minion.jobs.RunningJobs;
import io.jsalt.minion.modules.MinionModules;
import io.jsalt.minion.testing.FakeFileServer;
import io.jsalt.minion.testing.ModuleJarBuilder;
import io.jsalt.modules.CallResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** saltutil's module sync and refreshes, called as jobs call them, against a file server over a folder. */
class SaltutilModuleTest {
    @TempDir
    Path root;
    @TempDir
    Path fileRoots;
    @TempDir
    Path work;

    private MinionConfig config;
    private MinionModules modules;
    private RunningJobs running;
    private final AtomicInteger grainRefreshes = new AtomicInteger();
    private final List<String> pillarRequests = new ArrayList<>();

    @BeforeEach
    void start() {
        config = MinionConfig.builder(root).id("web-1").build();
        FakeFileServer server = new FakeFileServer(fileRoots, 1000);
        RemoteMasterFiles files = new RemoteMasterFiles(server::answer, config.cachedir().resolve("files"));
        MinionGrains grains = new MinionGrains(() -> Map.of("os", "TestOS"), new YamlGrainsFile(config.grainsFile()), Map.of());
        running = new RunningJobs(null, "web-1");
        SaltutilModule saltutil = new SaltutilModule(running, grainRefreshes::incrementAndGet, () -> pillarRequests.add("_pillar"),
                MinionModules.jarDir(config));
        modules = new MinionModules(config, grains, files, List.of(saltutil));
    }

    @AfterEach
    void stop() {
        modules.close();
        running.close();
    }

    private Path masterModule(String name, String answer) throws Exception {
        return ModuleJarBuilder.build(fileRoots.resolve("base/_modules/" + name + ".jar"), work.resolve(name + "-" + answer),
                name, "world", answer);
    }

    private CallResult call(String fun, Object... args) {
        return modules.current().call(fun, List.of(args));
    }

    @Test
    void syncModulesFetchesTheMastersJarsAndMakesThemCallable() throws Exception {
        masterModule("hello", "hi");

        CallResult synced = call("saltutil.sync_modules");

        assertThat(synced.ret()).isEqualTo(List.of("modules.hello"));
        assertThat(MinionModules.jarDir(config).resolve("hello.jar")).exists();
        assertThat(call("hello.world").ret()).isEqualTo("hi");
    }

    @Test
    void aSecondSyncReportsOnlyWhatChangedAndRemovesWhatTheMasterNoLongerHas() throws Exception {
        masterModule("hello", "hi");
        masterModule("other", "x");
        call("saltutil.sync_modules");

        assertThat(call("saltutil.sync_modules").ret()).isEqualTo(List.of());

        Files.delete(fileRoots.resolve("base/_modules/other.jar"));
        masterModule("hello", "changed");

        assertThat(call("saltutil.sync_modules").ret()).isEqualTo(List.of("modules.hello"));
        assertThat(MinionModules.jarDir(config).resolve("other.jar")).doesNotExist();
        assertThat(call("hello.world").ret()).isEqualTo("changed");
        assertThat(modules.current().has("other.world")).isFalse();
    }

    @Test
    void syncWithoutRefreshLeavesTheFunctionsAsTheyWereUntilRefreshModules() throws Exception {
        masterModule("hello", "hi");

        call("saltutil.sync_modules", Map.of("__kwarg__", true, "refresh", false));
        assertThat(modules.current().has("hello.world")).isFalse();

        assertThat(call("saltutil.refresh_modules").ret()).isEqualTo(true);
        assertThat(modules.current().has("hello.world")).isTrue();
    }

    @Test
    void syncAllAnswersSaltsListPerKindWithTheModulesFilled() throws Exception {
        masterModule("hello", "hi");

        @SuppressWarnings("unchecked")
        Map<String, Object> ret = (Map<String, Object>) call("saltutil.sync_all").ret();

        assertThat(ret).containsEntry("modules", List.of("modules.hello")).containsEntry("states", List.of())
                .containsEntry("grains", List.of()).containsKeys("beacons", "returners", "utils");
    }

    @Test
    void aSyncFromAnEnvironmentWithoutModulesSyncsNothingAndRemovesTheOldOnes() throws Exception {
        masterModule("hello", "hi");
        call("saltutil.sync_modules");

        assertThat(call("saltutil.sync_modules", "dev").ret()).isEqualTo(List.of());
        assertThat(MinionModules.jarDir(config).resolve("hello.jar")).doesNotExist();
    }

    @Test
    void refreshGrainsCollectsThemAgainAndSendsThemToTheMasterUnlessToldNot() {
        assertThat(call("saltutil.refresh_grains").ret()).isEqualTo(true);
        assertThat(grainRefreshes).hasValue(1);
        assertThat(pillarRequests).hasSize(1);

        call("saltutil.refresh_grains", Map.of("__kwarg__", true, "refresh_pillar", false));
        assertThat(grainRefreshes).hasValue(2);
        assertThat(pillarRequests).hasSize(1);

        assertThat(call("saltutil.refresh_grains", Map.of("__kwarg__", true, "bogus", 1)).success()).isFalse();
    }

    @Test
    void refreshPillarAcceptsSaltsWaitTimeoutAndCleanCache() {
        CallResult result = call("saltutil.refresh_pillar",
                Map.of("__kwarg__", true, "wait", true, "timeout", 10, "clean_cache", false));

        assertThat(result).isEqualTo(CallResult.ok(true));
        assertThat(call("saltutil.refresh_pillar", false, 30, true).ret()).isEqualTo(true);
        assertThat(pillarRequests).hasSize(2);
    }
}
