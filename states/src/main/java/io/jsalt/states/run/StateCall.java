package io.jsalt.states.run;

import io.jsalt.states.StatesException;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.JinjaRenderer;
import io.jsalt.states.render.RenderContext;
import java.util.List;
import java.util.Map;

/**
 * One state function call: its {@code name}, its arguments, whether this is a test run, and what the function may
 * use (the execution modules, the file server, the Jinja renderer with the run's context).
 */
public record StateCall(String name, Map<String, Object> args, boolean test, FunctionCaller salt, StateFiles files,
        JinjaRenderer jinja, RenderContext context, List<StateChunk> required) {

    /**
     * @param required the states this one {@code require}s (its own and others' {@code require_in}), which
     *                 {@code file.directory}'s and {@code file.recurse}'s {@code clean} keep
     */
    public StateCall {
        required = List.copyOf(required);
    }

    /** A call that requires nothing. */
    public StateCall(String name, Map<String, Object> args, boolean test, FunctionCaller salt, StateFiles files,
            JinjaRenderer jinja, RenderContext context) {
        this(name, args, test, salt, files, jinja, context, List.of());
    }

    /** The same call on another name with other arguments (a state function calling another, as Salt's do). */
    public StateCall with(String otherName, Map<String, Object> otherArgs) {
        return new StateCall(otherName, otherArgs, test, salt, files, jinja, context, List.of());
    }

    public String string(String key) {
        Object v = args.get(key);
        return v == null ? null : String.valueOf(v);
    }

    public boolean flag(String key, boolean fallback) {
        Object v = args.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = String.valueOf(v).toLowerCase();
        return s.equals("true") || s.equals("yes") || s.equals("1") || s.equals("on");
    }

    /** An argument that may be one string or a list of strings (Salt's {@code unless}, {@code onlyif}, ...). */
    public List<String> strings(String key) {
        Object v = args.get(key);
        if (v == null) {
            return List.of();
        }
        if (v instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(v));
    }

    /** Refuses arguments the function does not know, as Salt refuses unexpected keyword arguments. */
    public void allowOnly(String fun, List<String> known) {
        for (String key : args.keySet()) {
            if (!known.contains(key)) {
                throw new StatesException(fun + "() got an unexpected keyword argument '" + key + "'");
            }
        }
    }
}
