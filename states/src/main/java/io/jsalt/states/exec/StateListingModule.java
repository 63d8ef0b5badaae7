package io.jsalt.states.exec;

import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import io.jsalt.states.builtin.BuiltinStates;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Salt's {@code sys.list_state_modules} and {@code sys.list_state_functions}: the state functions this minion has. */
@SaltModule(name = "sys")
public final class StateListingModule implements ExecutionModule {

    @SaltFunction(doc = "List the state functions, or those of the named state modules; a name with '*' or '.' is a "
            + "glob on full names ('pkg.*'), a bare name a module ('file').\n\n"
            + "CLI Example: salt '*' sys.list_state_functions file pkg.installed")
    public List<String> list_state_functions(@VarArgs("args") List<Object> patterns) {
        Set<String> all = BuiltinStates.all().names();
        if (patterns.isEmpty()) {
            return new ArrayList<>(new TreeSet<>(all));
        }
        Set<String> names = new TreeSet<>();
        for (Object item : patterns) {
            String pattern = String.valueOf(item);
            if (pattern.contains("*") || pattern.contains(".")) {
                all.stream().filter(f -> matches(pattern, f)).forEach(names::add);
            } else {
                all.stream().filter(f -> f.startsWith(pattern + ".")).forEach(names::add);
            }
        }
        return new ArrayList<>(names);
    }

    @SaltFunction(doc = "List the state modules, optionally those matching globs.\n\n"
            + "CLI Example: salt '*' sys.list_state_modules 'p*'")
    public List<String> list_state_modules(@VarArgs("args") List<Object> patterns) {
        Set<String> modules = new TreeSet<>();
        for (String fun : BuiltinStates.all().names()) {
            String module = fun.substring(0, fun.indexOf('.'));
            // as Salt: a glob is matched against the full function names, a bare name against module names
            if (patterns.isEmpty() || patterns.stream().map(String::valueOf).anyMatch(p -> p.contains("*")
                    ? matches(p, fun) : p.equals(module))) {
                modules.add(module);
            }
        }
        return new ArrayList<>(modules);
    }

    /** Python's fnmatch on a name without '/' (state function names have none). */
    private static boolean matches(String glob, String name) {
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(Path.of(name));
        } catch (IllegalArgumentException e) {
            return false; // a malformed glob matches nothing
        }
    }
}
