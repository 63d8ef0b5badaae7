package io.jsalt.master.runner;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runner functions the master offers, by name: the allowlist the {@code runner} command dispatches
 * through (a name from the wire is only ever a key here).
 */
public final class RunnerRegistry {
    private final Map<String, RunnerFunction> functions = new TreeMap<>();

    public RunnerRegistry(List<RunnerModule> modules) {
        for (RunnerModule module : modules) {
            for (RunnerFunction f : module.functions()) {
                if (functions.putIfAbsent(f.name(), f) != null) {
                    throw new IllegalArgumentException("runner function " + f.name() + " is offered twice");
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
