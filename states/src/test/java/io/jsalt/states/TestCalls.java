package io.jsalt.states;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import io.jsalt.modules.api.JobControl;
import io.jsalt.states.exec.RegistryCaller;
import io.jsalt.states.files.FolderFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.JinjaRenderer;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.run.StateCall;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** State calls for tests: a file server in a folder, and the real built-in execution modules. */
public final class TestCalls {
    private TestCalls() {
    }

    /** The real execution modules of the modules library (cmd, test, ...), as a minion has them. */
    public static FunctionCaller realModules() {
        ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("m1").build());
        return new RegistryCaller(registry, JobControl.NONE);
    }

    public static RenderContext context(FunctionCaller salt) {
        return new RenderContext(Map.of("os", "Debian"), Map.of(), Map.of("id", "m1"), "base", "web", "web/init.sls", salt);
    }

    /** {@code args} as alternating keys and values. */
    public static StateCall call(Path fileRoot, boolean test, String name, Object... args) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            map.put((String) args[i], args[i + 1]);
        }
        FolderFiles files = FolderFiles.base(fileRoot);
        FunctionCaller salt = realModules();
        return new StateCall(name, map, test, salt, files, new JinjaRenderer(files), context(salt));
    }

    public static List<Object> list(Object... items) {
        return List.of(items);
    }
}
