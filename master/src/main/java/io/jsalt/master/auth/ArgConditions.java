package io.jsalt.master.auth;

import io.jsalt.modules.binding.KeywordString;
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
 *
 * <p>The arguments are judged as the minion (or the runner) will bind them, so that a condition cannot be walked
 * around by passing a keyword argument in another form: a {@code {"__kwarg__": True, ...}} mapping anywhere in
 * {@code arg} (not only last) carries keyword arguments, and so does a string {@code name=value} (Salt's
 * {@code KWARG_REGEX}). A runner always reads such a string as a keyword; a minion does when its function takes
 * that name (jsalt's {@code FunctionBinder}) or any keyword (Salt's {@code load_args_and_kwargs}), which the
 * master cannot know, so a publish must pass under every reading: each such string positional, or a keyword.
 * A keyword read from a string must match as written and as the minion reads it ({@code force=yes} is
 * {@code True}). A publish with more than {@link #MAX_AMBIGUOUS} such strings passes no condition.
 */
public final class ArgConditions {
    private static final String KWARG_MARK = "__kwarg__";
    /** Readings double with each {@code name=value} string of a publish; past this many, the call passes no condition. */
    static final int MAX_AMBIGUOUS = 8;

    public static final ArgConditions NONE = new ArgConditions(List.of(new Reading(List.of(), Map.of())));
    /** Arguments that are not known (too big to have been kept): they pass no condition, only an unconditional right. */
    public static final ArgConditions UNKNOWN = new ArgConditions(List.of());

    /** One way the call may be bound: its positional and keyword arguments. */
    private record Reading(List<Object> args, Map<String, Object> kwargs) {}

    /** A keyword argument written {@code name=value}: the text after {@code =}, and the value the minion reads from it. */
    private record KeywordText(String written, Object read) {}

    /** Every way the call may be bound (empty: too many to judge, so no condition passes). */
    private final List<Reading> readings;

    private ArgConditions(List<Reading> readings) {
        this.readings = List.copyOf(readings);
    }

    /**
     * A publish's {@code arg} list as a minion binds it: {@code {"__kwarg__": True, ...}} mappings (Salt's
     * LocalClient puts one last, but a minion takes one anywhere) are keyword arguments, and each {@code name=value}
     * string may be a keyword or positional.
     */
    public static ArgConditions ofPublish(List<?> arg) {
        if (arg == null || arg.isEmpty()) {
            return NONE;
        }
        long ambiguous = arg.stream().filter(a -> a instanceof String s && KeywordString.parse(s).isPresent()).count();
        if (ambiguous > MAX_AMBIGUOUS) {
            return UNKNOWN;
        }
        List<Reading> readings = new ArrayList<>();
        for (int asKeywords = 0; asKeywords < 1 << ambiguous; asKeywords++) {
            readings.add(read(arg, asKeywords, Map.of()));
        }
        return new ArgConditions(readings);
    }

    /**
     * A runner's or wheel's {@code arg} and {@code kwarg} (Salt's spec_check reads {@code args.get("arg")},
     * {@code args.get("kwarg")}), as the runner binds them: {@code __kwarg__} mappings and {@code name=value} strings
     * in {@code arg} are keyword arguments, and {@code kwarg} adds to them.
     */
    public static ArgConditions of(Object arg, Object kwarg) {
        List<Object> given = arg instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
        if (arg != null && !(arg instanceof List<?>)) {
            given.add(arg);
        }
        Map<String, Object> named = new LinkedHashMap<>();
        if (kwarg instanceof Map<?, ?> m) {
            m.forEach((k, v) -> named.put(String.valueOf(k), v));
        }
        return new ArgConditions(List.of(read(given, -1, named)));
    }

    /** One reading of {@code arg}: the i-th {@code name=value} string is a keyword when bit i of {@code asKeywords} is set. */
    private static Reading read(List<?> arg, int asKeywords, Map<String, Object> kwarg) {
        List<Object> positional = new ArrayList<>();
        Map<String, Object> kwargs = new LinkedHashMap<>();
        int nth = 0;
        for (Object item : arg) {
            if (item instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get(KWARG_MARK))) {
                map.forEach((k, v) -> kwargs.put(String.valueOf(k), v));
                continue;
            }
            java.util.Optional<KeywordString> keyword = item instanceof String s ? KeywordString.parse(s) : java.util.Optional.empty();
            if (keyword.isPresent() && (asKeywords & (1 << nth++)) != 0) {
                String name = keyword.get().name();
                kwargs.put(name, new KeywordText(((String) item).substring(name.length() + 1), keyword.get().value()));
            } else {
                positional.add(item);
            }
        }
        kwargs.putAll(kwarg);
        kwargs.remove(KWARG_MARK);
        return new Reading(positional, kwargs);
    }

    /** Whether these arguments satisfy {@code condition} (a mapping, or a list of mappings any of which will do). */
    public boolean satisfy(Object condition) {
        if (readings.isEmpty()) {
            return false;
        }
        List<?> alternatives = condition instanceof List<?> l ? l : java.util.Collections.singletonList(condition);
        for (Reading reading : readings) {
            if (alternatives.stream().noneMatch(alternative -> alternative instanceof Map<?, ?> cond && satisfiesOne(cond, reading))) {
                return false;
            }
        }
        return true;
    }

    private static boolean satisfiesOne(Map<?, ?> cond, Reading reading) {
        List<Object> args = reading.args();
        Map<String, Object> kwargs = reading.kwargs();
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
        if (value instanceof KeywordText keyword) {
            return valueMatches(condition, keyword.written()) && valueMatches(condition, keyword.read());
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
