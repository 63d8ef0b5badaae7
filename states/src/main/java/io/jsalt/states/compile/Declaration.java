package io.jsalt.states.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One state declaration of the high data: {@code id: {state.fun: [args]}} after its forms are unified
 * ({@code file.managed: [...]} and {@code file: [managed, ...]} are the same declaration).
 */
final class Declaration {
    final String id;
    final String sls;
    /** The saltenv the SLS was read from (Salt's {@code __env__}). */
    final String saltenv;
    final String state;
    String fun;
    final Map<String, Object> args;
    final int order;
    /** Where the function stands among the arguments as written (Salt's high data keeps it there). */
    final int funAt;

    Declaration(String id, String sls, String saltenv, Parsed parsed, int order) {
        this.id = id;
        this.sls = sls;
        this.saltenv = saltenv;
        this.state = parsed.state();
        this.fun = parsed.fun();
        this.args = parsed.args();
        this.order = order;
        this.funAt = parsed.funAt();
    }

    /**
     * A parsed {@code state.fun: [args]} or {@code state: [fun, args]} entry, before it gets an order.
     *
     * @param funAt how many arguments precede the function: all of them for {@code state.fun}, whose function
     *              Salt appends after the arguments
     */
    record Parsed(String state, String fun, Map<String, Object> args, int funAt) {
    }

    /**
     * Parses the body of {@code id} in {@code sls}: a map of state declarations.
     *
     * @param requireFun false for {@code extend}, whose entries may leave the function out
     * @throws StateCompileException with Salt's message when the body is malformed
     */
    static List<Parsed> parse(String id, Object body, String sls, boolean requireFun) {
        if (!(body instanceof Map<?, ?> decls)) {
            throw new StateCompileException("ID '" + id + "' in SLS '" + sls + "' is not formed as a dictionary");
        }
        List<Parsed> parsed = new ArrayList<>();
        List<Parsed> dotted = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Map.Entry<?, ?> entry : decls.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (key.startsWith("__")) {
                continue;
            }
            int dot = key.indexOf('.');
            String state = dot < 0 ? key : key.substring(0, dot);
            String fun = dot < 0 ? null : key.substring(dot + 1);
            if (seen.contains(state)) {
                throw new StateCompileException("ID '" + id + "' in SLS '" + sls + "' contains multiple state "
                        + "declarations of the same type ('" + state + "')");
            }
            seen.add(state);
            Map<String, Object> args = new LinkedHashMap<>();
            Object value = entry.getValue();
            List<?> items = value == null ? List.of() : value instanceof List<?> list ? list : null;
            if (items == null) {
                throw new StateCompileException("The type " + key + " in ID '" + id + "' in SLS '" + sls
                        + "' is not formatted as a list");
            }
            int funAt = -1;
            for (Object item : items) {
                if (item instanceof String f) {
                    if (fun != null) {
                        throw new StateCompileException("Too many functions declared in state '" + state
                                + "' in SLS '" + sls + "'");
                    }
                    fun = f;
                    funAt = args.size();
                } else if (item instanceof Map<?, ?> arg && arg.size() == 1) {
                    Map.Entry<?, ?> a = arg.entrySet().iterator().next();
                    args.put(String.valueOf(a.getKey()), a.getValue());
                } else {
                    throw new StateCompileException("ID '" + id + "' in SLS '" + sls + "': an argument of "
                            + key + " is not a single key dictionary: " + item);
                }
            }
            if (fun == null && requireFun) {
                throw new StateCompileException("No function declared in state '" + state + "' in SLS '" + sls
                        + "' (ID '" + id + "')");
            }
            (dot < 0 ? parsed : dotted).add(new Parsed(state, fun, args, funAt < 0 ? args.size() : funAt));
        }
        // Salt turns each 'state.fun' key into a 'state' key added at the end of the id's dictionary, so those
        // declarations come after the plain 'state: [fun, ...]' ones in definition order
        parsed.addAll(dotted);
        return parsed;
    }
}
