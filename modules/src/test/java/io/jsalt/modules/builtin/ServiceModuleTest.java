package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceModuleTest {

    private static final List<String> FUNCTIONS = List.of("status", "start", "stop", "restart", "reload", "enable",
            "disable", "enabled", "disabled", "available", "missing", "get_all", "get_enabled");

    @TempDir
    Path dir;

    private static ModuleRegistry registry(ServiceModule module) {
        return ModuleRegistry.builder(SimpleModuleContext.builder().minionId("s").build()).addModule(module).build();
    }

    private static List<Object> argsFor(String function) {
        return function.startsWith("get_") ? List.of() : List.of("ssh");
    }

    @Test
    void everyFunctionAnswersAClearErrorWhereSystemdIsNotRunning() {
        ModuleRegistry registry = registry(new ServiceModule(dir.resolve("run/systemd/system")));

        for (String function : FUNCTIONS) {
            CallResult result = registry.call("service." + function, argsFor(function));
            assertThat(result.retcode()).as(function).isEqualTo(1);
            assertThat(result.success()).as(function).isFalse();
            assertThat((String) result.ret()).as(function).startsWith("ERROR: systemd is not running on this host: service."
                    + function + " needs systemd");
        }
    }

    @Test
    void theRealHostIsAnsweredAccordingToWhetherSystemdRunsOnIt() {
        ModuleRegistry registry = registry(new ServiceModule());

        CallResult all = registry.call("service.get_all", List.of());
        CallResult bogus = registry.call("service.available", List.of("no-such-unit-jsalt"));
        if (Files.isDirectory(Path.of("/run/systemd/system"))) {
            assertThat(all.success()).isTrue();
            assertThat((List<?>) all.ret()).isNotEmpty();
            assertThat(bogus).isEqualTo(CallResult.ok(false));
        } else {
            assertThat(all.ret()).isEqualTo("ERROR: systemd is not running on this host: service.get_all needs systemd "
                    + "(/run/systemd/system is missing)");
            assertThat(bogus.retcode()).isEqualTo(1);
        }
    }

    @Test
    void anInvalidNameIsRefusedBeforeAnythingRuns() throws Exception {
        Files.createDirectories(dir.resolve("marker"));
        ModuleRegistry registry = registry(new ServiceModule(dir.resolve("marker")));

        CallResult result = registry.call("service.start", List.of(Map.of("__kwarg__", true, "name", "--root=/")));

        assertThat(result).isEqualTo(CallResult.failed("ERROR: Invalid service name '--root=/'", 1));
    }
}
