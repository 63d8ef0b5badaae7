package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code module.run}: calls the minion's execution modules from a state. Salt 3006 picks the style from the
 * arguments, as this does: when every argument names a function ({@code - test.echo: [{text: x}]}) it is the new
 * style, several functions in one state; otherwise the legacy style, {@code name: test.echo} with the function's
 * arguments beside it ({@code m_name} for an argument called {@code name}).
 */
public final class ModuleStates {
    // Salt renames these legacy arguments, which would clash with the state's own ones
    private static final List<String> RENAMED = List.of("name", "fun", "names", "state", "saltenv");

    private ModuleStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("module.run", ModuleStates::run)
                .add("module.wait", ModuleStates::waitForWatch)
                .add("module.watch", ModuleStates::waitForWatch)
                .addWatch("module", ModuleStates::run);
    }

    /** Salt's {@code module.wait}: nothing unless a watched state changed (then {@code mod_watch}, which is run). */
    static StateResult waitForWatch(StateCall call) {
        return StateResult.ok("");
    }

    static StateResult run(StateCall call) {
        boolean legacy = call.args().isEmpty() || call.args().keySet().stream().anyMatch(k -> !k.contains("."));
        return legacy ? legacyRun(call) : newStyleRun(call);
    }

    private static StateResult newStyleRun(StateCall call) {
        List<String> missing = new ArrayList<>();
        List<String> tests = new ArrayList<>();
        for (String key : call.args().keySet()) {
            String fun = functionOf(key);
            if (!call.salt().has(fun)) {
                missing.add(fun);
            } else if (call.test()) {
                tests.add(fun);
            }
        }
        if (!missing.isEmpty() || !tests.isEmpty()) {
            // Salt's words, with its plural quirk: more than one function prints "True" after "function"
            String comment = String.join(" ",
                    missing.isEmpty() ? "" : "Unavailable function" + plural(missing) + ": " + String.join(", ", missing) + ".",
                    tests.isEmpty() ? "" : "Function" + plural(tests) + " " + String.join(", ", tests) + " to be executed.")
                    .strip();
            return new StateResult(missing.isEmpty() ? null : false, Map.of(), comment);
        }
        List<String> failures = new ArrayList<>();
        List<String> successes = new ArrayList<>();
        Map<String, Object> changes = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : call.args().entrySet()) {
            String key = entry.getKey();
            Object ret;
            try {
                ret = callWith(call, functionOf(key), entry.getValue());
            } catch (StatesException e) {
                failures.add("'" + key + "' failed: " + e.getMessage());
                continue;
            }
            if (!succeeded(ret, false)) {
                if (ret instanceof Map<?, ?> map) {
                    Object why = map.containsKey("comment") ? map.get("comment") : "(error message N/A)";
                    failures.add("'" + key + "' failed: " + why);
                }
                if (Boolean.FALSE.equals(ret)) {
                    failures.add("'" + key + "': False");
                }
            } else {
                Object said = ret instanceof Map<?, ?> map ? (map.containsKey("comment") ? map.get("comment") : "Success")
                        : ret;
                successes.add(key + ": " + PythonText.of(said));
                changes.put(key, ret);
            }
        }
        List<String> all = new ArrayList<>(failures);
        all.addAll(successes);
        return new StateResult(failures.isEmpty(), changes, String.join(", ", all));
    }

    private static String plural(List<String> names) {
        return names.size() > 1 ? "True" : "";
    }

    /** {@code test.echo:2} calls {@code test.echo}: the suffix lets one state call a function twice. */
    private static String functionOf(String key) {
        int colon = key.indexOf(':');
        return colon < 0 ? key : key.substring(0, colon);
    }

    /** Salt's call_function: in the list, one-key dictionaries are keyword arguments, anything else positional. */
    private static Object callWith(StateCall call, String fun, Object given) {
        List<Object> args = new ArrayList<>();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        List<?> items = given == null ? List.of() : given instanceof List<?> list ? list : List.of(given);
        for (Object item : items) {
            if (item instanceof Map<?, ?> map) {
                map.forEach((k, v) -> kwargs.put(String.valueOf(k), v));
            } else {
                args.add(item);
            }
        }
        return call.salt().call(fun, args, kwargs);
    }

    private static StateResult legacyRun(StateCall call) {
        String fun = call.name();
        if (!call.salt().has(fun)) {
            return StateResult.failed("Module function " + fun + " is not available");
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Module function " + fun + " is set to execute");
        }
        Map<String, Object> given = new LinkedHashMap<>(call.args());
        Map<String, Object> kwargs = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        FunctionSpec spec = FunctionSpec.of(call, fun);
        for (int i = 0; i < spec.args().size(); i++) {
            String arg = spec.args().get(i);
            String key = RENAMED.contains(arg) ? "m_" + arg : arg;
            if (given.containsKey(key)) {
                kwargs.put(arg, given.remove(key));
            } else if (given.containsKey(arg) && !RENAMED.contains(arg)) {
                kwargs.put(arg, given.remove(arg));
            } else if (!spec.hasDefault(i)) {
                missing.add(key);
            }
        }
        if (!missing.isEmpty()) {
            return StateResult.failed("The following arguments are missing: " + String.join(" ", missing));
        }
        if (spec.takesKwargs() && given.get("kwargs") instanceof Map<?, ?> extra) {
            extra.forEach((k, v) -> kwargs.put(String.valueOf(k), v));
        } else if (spec.takesKwargs() && given.containsKey("kwargs")) {
            return StateResult.failed("'kwargs' must be a dict.");
        }
        Object ret;
        try {
            ret = call.salt().call(fun, List.of(), kwargs);
        } catch (StatesException e) {
            return StateResult.failed("Module function " + fun + " threw an exception. Exception: " + e.getMessage());
        }
        Map<String, Object> changes = new LinkedHashMap<>();
        changes.put("ret", ret);
        return new StateResult(succeeded(ret, true), changes, "Module function " + fun + " executed");
    }

    /**
     * Salt's _get_result: a dictionary with a non-zero {@code retcode} failed, a boolean is the answer; in the legacy
     * style a dictionary's own {@code result}, or any nested {@code result: False}, decides too.
     */
    static boolean succeeded(Object ret, boolean legacy) {
        if (ret instanceof Map<?, ?> map && map.get("retcode") instanceof Number code && code.intValue() != 0) {
            return false;
        }
        if (ret instanceof Boolean b) {
            return b;
        }
        if (!legacy || !(ret instanceof Map<?, ?> map)) {
            return true;
        }
        if (map.get("result") instanceof Boolean b) {
            return b;
        }
        return noFalseResult(map);
    }

    private static boolean noFalseResult(Map<?, ?> node) {
        for (Map.Entry<?, ?> e : node.entrySet()) {
            if ("result".equals(e.getKey()) && Boolean.FALSE.equals(e.getValue())) {
                return false;
            }
            if (e.getValue() instanceof Map<?, ?> inner && !noFalseResult(inner)) {
                return false;
            }
        }
        return true;
    }
}
