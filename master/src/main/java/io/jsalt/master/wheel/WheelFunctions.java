package io.jsalt.master.wheel;

import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The wheel functions the master offers, by name: the allowlist the {@code wheel} command dispatches through
 * (a name from the wire is only ever a key here). They are declared as runner functions are (a signature with
 * Salt's parameters and defaults, bound with Salt's rules) since Salt's wheel takes its arguments the same way.
 */
public final class WheelFunctions {
    private final Map<String, RunnerFunction> functions = new TreeMap<>();

    public WheelFunctions(List<RunnerModule> modules) {
        for (RunnerModule module : modules) {
            for (RunnerFunction f : module.functions()) {
                if (functions.putIfAbsent(f.name(), f) != null) {
                    throw new IllegalArgumentException("wheel function " + f.name() + " is offered twice");
                }
            }
        }
    }

    public Optional<RunnerFunction> find(String fun) {
        return Optional.ofNullable(functions.get(fun));
    }

    /** Every function's name, sorted. */
    public List<String> names() {
        return List.copyOf(functions.keySet());
    }
}
