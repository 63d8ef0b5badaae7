package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SysModuleTest {

    @SaltModule(name = "sysctl")
    public static final class Sysctl implements ExecutionModule {
        @SaltFunction(doc = "Show kernel parameters.")
        public boolean show() {
            return true;
        }
    }

    private final ModuleRegistry registry = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("m").build())
            .addDiscovered(getClass().getClassLoader()).addModule(new Sysctl()).build();

    private Object call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args)).ret();
    }

    @SuppressWarnings("unchecked")
    private List<String> names(String fun, Object... args) {
        return (List<String>) call(fun, args);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> docs(Object... args) {
        return (Map<String, Object>) call("sys.doc", args);
    }

    @Test
    void listFunctionsWithoutArgumentsListsEverything() {
        List<String> all = names("sys.list_functions");

        assertThat(all).contains("test.ping", "cmd.run", "grains.items", "sys.list_functions", "sysctl.show");
        assertThat(all).isSorted();
        assertThat(all).hasSameSizeAs(registry.functionNames());
    }

    @Test
    void listFunctionsFiltersByModuleOrGlob() {
        assertThat(names("sys.list_functions", "test")).contains("test.ping", "test.echo")
                .allMatch(f -> f.startsWith("test."));
        assertThat(call("sys.list_functions", "sys")).isEqualTo(List.of("sys.argspec", "sys.doc",
                "sys.list_functions", "sys.list_modules", "sys.list_runners", "sys.reload_modules"));
        assertThat(names("sys.list_functions", "sys*")).contains("sysctl.show", "sys.doc");
        assertThat(call("sys.list_functions", "cmd.run*")).isEqualTo(List.of("cmd.run", "cmd.run_all",
                "cmd.run_stderr", "cmd.run_stdout"));
        assertThat(call("sys.list_functions", "test.ping", "cmd.which")).isEqualTo(List.of("cmd.which", "test.ping"));
        assertThat(call("sys.list_functions", "nope")).isEqualTo(List.of());
    }

    @Test
    void listRunnersListsJsaltsRunnerModulesFilteredByGlobs() {
        assertThat(call("sys.list_runners")).isEqualTo(List.of("doc", "jobs", "manage", "state", "supervisor", "target"));
        assertThat(call("sys.list_runners", "m*")).isEqualTo(List.of("manage"));
        assertThat(call("sys.list_runners", "t*", "j*")).isEqualTo(List.of("jobs", "target"));
        assertThat(call("sys.list_runners", "nope")).isEqualTo(List.of());
    }

    @Test
    void listModulesListsModuleNames() {
        assertThat(call("sys.list_modules")).isEqualTo(List.of("cmd", "disk", "file", "grains", "group", "network", "pkg",
                "ps", "service", "status", "sys", "sysctl", "test", "user"));
        assertThat(call("sys.list_modules", "s*")).isEqualTo(List.of("service", "status", "sys", "sysctl"));
    }

    @Test
    void docReturnsDocstringsKeyedByFunction() {
        Map<String, Object> docs = docs("test.ping");

        assertThat(docs.keySet()).containsExactly("test.ping");
        assertThat((String) docs.get("test.ping")).startsWith("Used to make sure the minion is up and responding.");
        assertThat(docs("sysctl")).isEqualTo(Map.of("sysctl.show", "Show kernel parameters."));
        assertThat(docs()).containsKeys("cmd.run", "grains.get");
    }

    @Test
    void argspecReportsArgumentsDefaultsAndCatchAllsInSaltsShape() {
        Map<String, Object> echo = new java.util.LinkedHashMap<>();
        echo.put("args", List.of("text"));
        echo.put("defaults", null);
        echo.put("varargs", null);
        echo.put("kwargs", null);
        Map<String, Object> arg = new java.util.LinkedHashMap<>();
        arg.put("args", null);
        arg.put("defaults", null);
        arg.put("varargs", true);
        arg.put("kwargs", true);

        assertThat(call("sys.argspec", "test.echo")).isEqualTo(Map.of("test.echo", echo));
        assertThat(call("sys.argspec", "test.arg")).isEqualTo(Map.of("test.arg", arg));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> get = (Map<String, Map<String, Object>>) call("sys.argspec", "grains.get");
        assertThat(get.get("grains.get").get("args")).isEqualTo(List.of("key", "default", "delimiter"));
        assertThat(get.get("grains.get").get("defaults")).isEqualTo(List.of("", ":"));
    }

    @Test
    void argspecOfAModuleDoesNotMatchALongerModuleName() {
        assertThat(argspecNames("sys")).allMatch(f -> f.startsWith("sys.")).contains("sys.argspec");
        assertThat(argspecNames("sysctl")).containsExactly("sysctl.show");
        assertThat(argspecNames("cmd.run*")).contains("cmd.run", "cmd.run_all").doesNotContain("cmd.shell");
        assertThat(argspecNames()).contains("test.ping", "sysctl.show");
    }

    @SuppressWarnings("unchecked")
    private java.util.Set<String> argspecNames(Object... args) {
        return ((Map<String, Object>) call("sys.argspec", args)).keySet();
    }

    @Test
    void reloadModulesAsksTheContextToReload() {
        java.util.concurrent.atomic.AtomicInteger reloads = new java.util.concurrent.atomic.AtomicInteger();
        io.jsalt.modules.ModuleContext context = new io.jsalt.modules.ModuleContext() {
            @Override
            public String minionId() {
                return "m";
            }

            @Override
            public Map<String, Object> grains() {
                return Map.of();
            }

            @Override
            public Map<String, Object> opts() {
                return Map.of();
            }

            @Override
            public java.nio.file.Path cachedir() {
                return java.nio.file.Path.of("/tmp");
            }

            @Override
            public void reloadModules() {
                reloads.incrementAndGet();
            }
        };
        ModuleRegistry reloading = ModuleRegistry.builder(context).addModule(new SysModule()).build();

        assertThat(reloading.call("sys.reload_modules", List.of()).ret()).isEqualTo(true);
        assertThat(reloads).hasValue(1);
    }

    @Test
    void reloadModulesFailsWhereTheContextCannotReload() {
        io.jsalt.modules.CallResult result = registry.call("sys.reload_modules", List.of());

        assertThat(result.success()).isFalse();
        assertThat(result.ret()).isEqualTo("ERROR: module reload is not available here");
    }
}
