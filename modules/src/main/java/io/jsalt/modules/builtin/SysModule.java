package io.jsalt.modules.builtin;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Salt's {@code sys} module: what this minion can run, and the docs of it. */
@SaltModule(name = "sys", doc = "Return information about the modules and functions the minion can run.")
public final class SysModule implements ExecutionModule {
    /**
     * The runner modules of jsalt-run: the master's (doc, jobs, manage, supervisor, target) and state, whose state.event
     * jsalt-run serves itself. Built in, as a Salt minion lists the runners of its own installation; a client-cli
     * test holds this list to the master's.
     */
    static final List<String> RUNNERS = List.of("doc", "jobs", "manage", "state", "supervisor", "target");

    @SaltFunction(doc = "List the functions of all modules, or of the named modules. A name with a '.' or a "
            + "glob character matches full function names ('test.*', 'sys.list_*'); a bare name is a module "
            + "('sys' does not match 'sysctl').\n\nCLI Example: salt '*' sys.list_functions sys user")
    public List<String> list_functions(@VarArgs("args") List<Object> patterns, FunctionCatalog catalog) {
        return new ArrayList<>(matchingFunctions(patterns, catalog));
    }

    @SaltFunction(doc = "List the modules loaded on the minion, optionally filtered by globs.\n\n"
            + "CLI Example: salt '*' sys.list_modules 's*'")
    public List<String> list_modules(@VarArgs("args") List<Object> patterns, FunctionCatalog catalog) {
        if (patterns.isEmpty()) {
            return new ArrayList<>(catalog.moduleNames());
        }
        Set<String> names = new TreeSet<>();
        for (Object pattern : patterns) {
            Glob glob = Glob.of(String.valueOf(pattern));
            catalog.moduleNames().stream().filter(glob::matches).forEach(names::add);
        }
        return new ArrayList<>(names);
    }

    @SaltFunction(doc = "Return the docstrings of all functions, or of the named modules or functions "
            + "(globs allowed), as {function: doc}.\n\nCLI Example: salt '*' sys.doc test.ping")
    public Map<String, Object> doc(@VarArgs("args") List<Object> names, FunctionCatalog catalog) {
        Map<String, Object> docs = new LinkedHashMap<>();
        for (String fun : matchingFunctions(names, catalog)) {
            docs.put(fun, catalog.doc(fun).orElse(""));
        }
        return docs;
    }

    @SaltFunction(doc = "Return the argument specification of functions: {function: {args, defaults, varargs, "
            + "kwargs}}, as Salt's sys.argspec. The argument is a module ('sys' does not match 'sysctl') or a "
            + "function name or glob ('cmd.run*'); without one, every function.\n\n"
            + "CLI Example: salt '*' sys.argspec pkg.install")
    public Map<String, Object> argspec(@Arg(value = "module", defaultValue = "") String module,
                                       FunctionCatalog catalog) {
        List<Object> patterns = module.isEmpty() ? List.of() : List.of(module);
        Map<String, Object> specs = new LinkedHashMap<>();
        for (String fun : matchingFunctions(patterns, catalog)) {
            catalog.argspec(fun).ifPresent(spec -> specs.put(fun, spec));
        }
        return specs;
    }

    @SaltFunction(doc = "Reload the minion's execution modules, so that module jars synced into "
            + "extension_modules become callable by the next job. Returns True.\n\n"
            + "CLI Example: salt '*' sys.reload_modules")
    public boolean reload_modules(ModuleContext context) {
        context.reloadModules();
        return true;
    }

    @SaltFunction(doc = "List the runner modules jsalt offers (jsalt-run doc, jobs, manage, state, target), optionally "
            + "filtered by globs. They are built into jsalt, so this minion's list is the master's too.\n\n"
            + "CLI Example: salt '*' sys.list_runners 'm*'")
    public List<String> list_runners(@VarArgs("args") List<Object> patterns) {
        if (patterns.isEmpty()) {
            return RUNNERS;
        }
        Set<String> names = new TreeSet<>();
        for (Object pattern : patterns) {
            Glob glob = Glob.of(String.valueOf(pattern));
            RUNNERS.stream().filter(glob::matches).forEach(names::add);
        }
        return new ArrayList<>(names);
    }

    /** Salt's matching rule for sys.list_functions and sys.doc. */
    private static Set<String> matchingFunctions(List<Object> patterns, FunctionCatalog catalog) {
        if (patterns.isEmpty()) {
            return catalog.functionNames();
        }
        Set<String> names = new TreeSet<>();
        for (Object item : patterns) {
            String pattern = String.valueOf(item);
            if (Glob.isGlob(pattern) || pattern.contains(".")) {
                Glob glob = Glob.of(pattern);
                catalog.functionNames().stream().filter(glob::matches).forEach(names::add);
            } else {
                String prefix = pattern + ".";
                catalog.functionNames().stream().filter(f -> f.startsWith(prefix)).forEach(names::add);
            }
        }
        return names;
    }
}
