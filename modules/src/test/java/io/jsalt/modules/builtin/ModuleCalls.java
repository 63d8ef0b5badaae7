package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.ExecutionModule;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Calls module functions the way a minion does, through a registry, for the system module tests. */
final class ModuleCalls {

    private final ModuleRegistry registry;

    private ModuleCalls(ModuleRegistry registry) {
        this.registry = registry;
    }

    /** The built-in modules as ServiceLoader finds them. */
    static ModuleCalls builtIn() {
        return new ModuleCalls(ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("sys-test").build()));
    }

    /** Only the given module instances (built on test files). */
    static ModuleCalls of(ExecutionModule... modules) {
        ModuleRegistry.Builder builder = ModuleRegistry.builder(SimpleModuleContext.builder().minionId("sys-test").build());
        for (ExecutionModule module : modules) {
            builder.addModule(module);
        }
        return new ModuleCalls(builder.build());
    }

    CallResult call(String fun, Object... args) {
        return registry.call(fun, Arrays.asList(args));
    }

    /** The return value of a call that must succeed. */
    Object ret(String fun, Object... args) {
        CallResult result = call(fun, args);
        if (!result.success()) {
            throw new AssertionError(fun + " failed: " + result.ret());
        }
        return result.ret();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> map(String fun, Object... args) {
        return (Map<String, Object>) ret(fun, args);
    }

    @SuppressWarnings("unchecked")
    List<Object> list(String fun, Object... args) {
        return (List<Object>) ret(fun, args);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
