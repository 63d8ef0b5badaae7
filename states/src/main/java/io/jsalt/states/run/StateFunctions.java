package io.jsalt.states.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The state functions a run can call, by {@code state.fun}, and the {@code mod_watch} of each state module that has one. */
public final class StateFunctions {
    private final Map<String, StateFunction> functions = new LinkedHashMap<>();
    private final Map<String, StateFunction> watchers = new LinkedHashMap<>();

    public StateFunctions add(String fullName, StateFunction function) {
        functions.put(fullName, function);
        return this;
    }

    /**
     * What {@code watch} runs for {@code state} (or for one {@code state.fun}) when a watched state changed something
     * (Salt's {@code mod_watch}).
     */
    public StateFunctions addWatch(String state, StateFunction function) {
        watchers.put(state, function);
        return this;
    }

    public Optional<StateFunction> get(String state, String fun) {
        return Optional.ofNullable(functions.get(state + "." + fun));
    }

    public Optional<StateFunction> watcher(String state) {
        return Optional.ofNullable(watchers.get(state));
    }

    /**
     * The {@code mod_watch} for {@code state.fun}: one registered for that very function ({@code addWatch(
     * "service.running", ...)}, as Salt's mod_watch looks at {@code sfun}), else the state module's.
     */
    public Optional<StateFunction> watcher(String state, String fun) {
        StateFunction own = watchers.get(state + "." + fun);
        return own != null ? Optional.of(own) : watcher(state);
    }

    public Set<String> names() {
        return functions.keySet();
    }
}
