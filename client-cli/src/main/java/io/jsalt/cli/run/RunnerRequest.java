package io.jsalt.cli.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code runner} clear command: {@code {"cmd": "runner", "fun", "arg", "kwarg", "user"}}; the client
 * key is added by {@link io.jsalt.cli.MasterConnection}.
 */
public record RunnerRequest(String fun, List<Object> arg, Map<String, Object> kwarg, String user) {
    public static final String CMD = "runner";

    /**
     * From Salt-style words already typed by {@link io.jsalt.cli.jsalt.ArgParser}: its trailing
     * {@code __kwarg__} map becomes {@code kwarg}, as salt.utils.args.parse_input splits them for runners.
     */
    public static RunnerRequest of(String fun, List<Object> parsedArgs, String user) {
        List<Object> positional = new ArrayList<>();
        Map<String, Object> kwarg = new LinkedHashMap<>();
        for (Object a : parsedArgs) {
            if (a instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("__kwarg__"))) {
                m.forEach((k, v) -> {
                    if (!"__kwarg__".equals(k)) {
                        kwarg.put(String.valueOf(k), v);
                    }
                });
            } else {
                positional.add(a);
            }
        }
        return new RunnerRequest(fun, positional, kwarg, user);
    }

    public Map<String, Object> toLoad() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cmd", CMD);
        m.put("fun", fun);
        m.put("arg", arg);
        m.put("kwarg", kwarg);
        m.put("user", user);
        return m;
    }
}
