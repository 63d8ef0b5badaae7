package io.jsalt.master.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runner functions the master offers, by name: the allowlist the {@code runner} command dispatches
 * through (a name from the wire is only ever a key here). It offers {@code doc.runner} itself, Salt's
 * {@code {function: docstring}} of every runner function.
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
        RunnerFunction doc = new RunnerFunction(RunnerSignature.of("doc.runner"),
                "Return the documentation of every runner function, as {function: docstring}.", a -> docs());
        if (functions.putIfAbsent(doc.name(), doc) != null) {
            throw new IllegalArgumentException("runner function doc.runner is offered twice");
        }
    }

    private Map<String, Object> docs() {
        Map<String, Object> docs = new LinkedHashMap<>();
        functions.values().forEach(f -> docs.put(f.name(), f.docstring()));
        return docs;
    }

    public Optional<RunnerFunction> find(String fun) {
        return Optional.ofNullable(functions.get(fun));
    }

    /** Every function's name, sorted. */
    public List<String> names() {
        return List.copyOf(functions.keySet());
    }
}
