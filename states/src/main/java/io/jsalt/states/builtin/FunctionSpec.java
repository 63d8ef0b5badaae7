package io.jsalt.states.builtin;

import io.jsalt.states.run.StateCall;
import java.util.List;
import java.util.Map;

/** An execution function's parameters, as {@code sys.argspec} reports them (Salt's legacy module.run reads them). */
record FunctionSpec(List<String> args, int defaults, boolean takesKwargs) {

    static FunctionSpec of(StateCall call, String fun) {
        Object specs = call.salt().call("sys.argspec", List.of(fun), Map.of());
        if (!(specs instanceof Map<?, ?> all) || !(all.get(fun) instanceof Map<?, ?> spec)) {
            return new FunctionSpec(List.of(), 0, false);
        }
        List<String> args = spec.get("args") instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
        int defaults = spec.get("defaults") instanceof List<?> d ? d.size() : 0;
        return new FunctionSpec(args, defaults, Boolean.TRUE.equals(spec.get("kwargs")));
    }

    /** Whether the i-th argument has a default (Salt's defaults belong to the trailing arguments). */
    boolean hasDefault(int i) {
        return i >= args.size() - defaults;
    }
}
