package io.jsalt.states.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The state modules as a minion lists them and as state.single finds them, through the discovered modules. */
class StateListingModuleTest {
    private final ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("m1").build());

    @Test
    void listStateModulesNamesEveryStateModule() {
        assertThat(registry.call("sys.list_state_modules", List.of()).ret()).isEqualTo(
                List.of("cmd", "cron", "file", "group", "module", "pkg", "service", "supervisor", "supervisord", "test",
                        "user"));
        assertThat(registry.call("sys.list_state_modules", List.of("p*", "user")).ret()).isEqualTo(List.of("pkg", "user"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void listStateFunctionsByModuleOrGlob() {
        assertThat(registry.call("sys.list_state_functions", List.of("pkg")).ret()).isEqualTo(
                List.of("pkg.installed", "pkg.latest", "pkg.purged", "pkg.removed"));
        assertThat(registry.call("sys.list_state_functions", List.of("service.*", "cron.present")).ret()).isEqualTo(
                List.of("cron.present", "service.dead", "service.disabled", "service.enabled", "service.running"));
        assertThat((List<Object>) registry.call("sys.list_state_functions", List.of()).ret()).contains("module.run", "user.present",
                "group.absent", "file.managed");
    }

    @Test
    void stateSingleRunsModuleRun() {
        CallResult r = registry.call("state.single", List.of("module.run", Map.of("name", "test.echo", "text", "hi",
                "__kwarg__", true)));
        assertThat(r.retcode()).as(r.toString()).isZero();
        Map<?, ?> entry = (Map<?, ?>) ((Map<?, ?>) r.ret()).get("module_|-test.echo_|-test.echo_|-run");
        assertThat(entry.get("changes")).isEqualTo(Map.of("ret", "hi"));
        assertThat(entry.get("comment")).isEqualTo("Module function test.echo executed");
    }
}
