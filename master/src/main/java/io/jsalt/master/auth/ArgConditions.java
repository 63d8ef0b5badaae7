package io.jsalt.master.auth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments a call carries, checked against an ACL's argument conditions as Salt 3006's
 * {@code CkMinions.__args_check} does: {@code {fun: {args: [regex, ...], kwargs: {name: regex}}}} (or a list of
 * such mappings, any of which may allow the call). Condition {@code i} of {@code args} must match the
 * {@code i}-th positional argument, each named keyword argument must be there and match; a null condition
 * allows any value but still needs the argument. Values are compared as Python's {@code str()} writes them
 * ({@code True}, {@code None}, {@code 5}), and a regex must match the whole value.
 *
 * <p>Stricter than Salt, on purpose: Salt lets through arguments a condition does not name, so
 * {@code cmd.run: {args: ['ls .*']}} also allowed {@code cmd.run 'ls /' /root '' root}, whose extra positional
 * arguments are {@code cwd}, {@code stdin} and {@code runas}. Here a condition describes the whole call: more
 * positional arguments than it has {@code args}, or a keyword argument its {@code kwargs} does not name, is
 * refused. A list or mapping argument passes only a null condition.
 */
public record ArgConditions(List<Object> args, Map<String, Object> kwargs) {
    private static final String KWARG_MARK = "__kwarg__";

    public static final ArgConditions NONE = new ArgConditions(List.of(), Map.of());

    public ArgConditions {
        args = args == null ? List.of() : java.util.Collections.unmodifiableList(new ArrayList<>(args));
        kwargs = kwargs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
    }

    /**
     * A publish's {@code arg} list, with Salt's LocalClient's trailing {@code {"__kwarg__": True, ...}} taken
     * as the keyword arguments (as Salt's {@code auth_check} reads it).
     */
    public static ArgConditions ofPublish(List<?> arg) {
        if (arg == null || arg.isEmpty()) {
            return NONE;
        }
        List<Object> positional = new ArrayList<>(arg);
        Map<String, Object> kwargs = new LinkedHashMap<>();
        if (positional.get(positional.size() - 1) instanceof Map<?, ?> last && Boolean.TRUE.equals(last.get(KWARG_MARK))) {
            positional.remove(positional.size() - 1);
            last.forEach((k, v) -> {
                if (!KWARG_MARK.equals(k)) {
                    kwargs.put(String.valueOf(k), v);
                }
            });
        }
        return new ArgConditions(positional, kwargs);
    }

    /** A runner's or wheel's {@code arg} and {@code kwarg} (Salt's spec_check reads {@code args.get("arg")}, {@code args.get("kwarg")}). */
    public static ArgConditions of(Object arg, Object kwarg) {
        List<Object> positional = new ArrayList<>();
        if (arg instanceof List<?> l) {
            positional.addAll(l);
        } else if (arg != null) {
            positional.add(arg);
        }
        Map<String, Object> kwargs = new LinkedHashMap<>();
        if (kwarg instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (!KWARG_MARK.equals(k)) {
                    kwargs.put(String.valueOf(k), v);
                }
            });
        }
        return new ArgConditions(positional, kwargs);
    }

    /** Whether these arguments satisfy {@code condition} (a mapping, or a list of mappings any of which will do). */
    public boolean satisfy(Object condition) {
        List<?> alternatives = condition instanceof List<?> l ? l : java.util.Collections.singletonList(condition);
        for (Object alternative : alternatives) {
            if (alternative instanceof Map<?, ?> cond && satisfiesOne(cond)) {
                return true;
            }
        }
        return false;
    }

    private boolean satisfiesOne(Map<?, ?> cond) {
        for (Object key : cond.keySet()) {
            if (!"args".equals(key) && !"kwargs".equals(key)) {
                return false; // a misspelt condition ("arg:") must not allow everything
            }
        }
        List<?> condArgs = cond.get("args") instanceof List<?> l ? l : cond.get("args") == null ? List.of() : List.of(cond.get("args"));
        if (cond.get("kwargs") != null && !(cond.get("kwargs") instanceof Map<?, ?>)) {
            return false;
        }
        Map<?, ?> condKwargs = cond.get("kwargs") instanceof Map<?, ?> m ? m : Map.of();
        if (args.size() > condArgs.size()) {
            return false;
        }
        for (int i = 0; i < condArgs.size(); i++) {
            if (i >= args.size() || !valueMatches(condArgs.get(i), args.get(i))) {
                return false;
            }
        }
        for (String name : kwargs.keySet()) {
            if (!condKwargs.containsKey(name)) {
                return false;
            }
        }
        for (Map.Entry<?, ?> e : condKwargs.entrySet()) {
            String name = String.valueOf(e.getKey());
            if (!kwargs.containsKey(name) || !valueMatches(e.getValue(), kwargs.get(name))) {
                return false;
            }
        }
        return true;
    }

    private static boolean valueMatches(Object condition, Object value) {
        if (condition == null) {
            return true; // Salt: None == '.*', any value
        }
        String text = pythonStr(value);
        return text != null && AuthList.matches(String.valueOf(condition), text);
    }

    /** Python's str() of a scalar as it arrived from msgpack; null for a list or mapping (no regex may match those). */
    static String pythonStr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String || value instanceof Number) {
            return String.valueOf(value);
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        return null;
    }
}
