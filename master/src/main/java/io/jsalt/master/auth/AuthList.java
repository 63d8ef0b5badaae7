package io.jsalt.master.auth;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One user's rights as Salt's {@code external_auth} writes them, and the checks Salt's
 * {@code CkMinions.auth_check} / {@code spec_check} make with them. An entry is a function regex allowed on
 * every minion ({@code test.*}), a one-key mapping {@code {target: [function regexes]}} allowed on the
 * minions the compound target matches, {@code @runner} / {@code @wheel} / {@code @jobs} (every function of
 * that kind or module), or a mapping {@code {"@runner": [regexes]}}.
 *
 * <p>Pure: it resolves targets through the function it is given, so the API and the master can both use it.
 * Stricter than Salt in two places, on purpose: a function regex must match the whole name (Salt's
 * {@code re.match} only anchors the start, so {@code test.ping} also allows {@code test.ping_evil}), and a
 * target that matches no minion is never allowed (the empty-set case of CVE-2022-22941). A function entry may
 * carry argument conditions ({@code {cmd.run: {args: ['ls .*']}}}), checked by {@link ArgConditions}.
 */
public final class AuthList {
    private final List<Object> entries;

    public AuthList(List<?> entries) {
        this.entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
    }

    public List<Object> entries() {
        return entries;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * Whether {@code fun} with arguments {@code args} may run on exactly the minions {@code targeted}; {@code expand}
     * resolves an ACL's target (as a compound expression) to minion ids. An empty {@code targeted} is always
     * refused; an entry {@code {fun: {args, kwargs}}} in a target's list allows only calls whose arguments satisfy it.
     */
    public boolean allowsPublish(String fun, ArgConditions args, Set<String> targeted, BiFunction<String, String, Set<String>> expand) {
        if (targeted.isEmpty()) {
            return false;
        }
        for (Object entry : entries) {
            if (entry instanceof String regex && !regex.startsWith("@") && matches(regex, fun)) {
                return true;
            }
            if (entry instanceof Map<?, ?> map && map.size() == 1) {
                Map.Entry<?, ?> only = map.entrySet().iterator().next();
                String validTarget = String.valueOf(only.getKey());
                if (validTarget.startsWith("@") || !anyMatches(only.getValue(), fun, args)) {
                    continue;
                }
                Set<String> allowed = expand.apply(validTarget, "compound");
                if (!allowed.isEmpty() && allowed.containsAll(targeted)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** jsalt's {@code @events} right: the whole event bus on {@code GET /events}, not only the user's own jobs. */
    public boolean allowsAllEvents() {
        return entries.contains("@events");
    }

    /**
     * Whether {@code fun} of kind {@code form} ({@code runner} or {@code wheel}) is allowed (Salt's spec_check), with
     * the call's {@code arg}/{@code kwarg} checked against argument conditions.
     */
    public boolean allowsSpecial(String form, String fun, ArgConditions args) {
        String module = fun.contains(".") ? fun.substring(0, fun.indexOf('.')) : fun;
        for (Object entry : entries) {
            if (entry instanceof String s && s.startsWith("@")) {
                String name = s.substring(1);
                if (name.equals(module) || name.equals(form) || name.equals(form + "s")) {
                    return true;
                }
            }
            if (entry instanceof Map<?, ?> map && map.size() == 1) {
                Map.Entry<?, ?> only = map.entrySet().iterator().next();
                String key = String.valueOf(only.getKey());
                if (!key.startsWith("@")) {
                    continue;
                }
                String name = key.substring(1);
                // {"@jobs": ["list_jobs"]} names functions of that module; {"@runner": ["jobs.*"]} whole names
                if (name.equals(module) && anyMatches(only.getValue(), fun.substring(Math.min(fun.length(), module.length() + 1)), args)) {
                    return true;
                }
                if ((name.equals(form) || name.equals(form + "s")) && anyMatches(only.getValue(), fun, args)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Salt's __fun_check: a function regex, or {@code {regex: conditions}} that also needs the arguments to pass. */
    private static boolean anyMatches(Object regexes, String fun, ArgConditions args) {
        List<?> list = regexes instanceof List<?> l ? l : java.util.Collections.singletonList(regexes);
        for (Object cond : list) {
            if (cond instanceof String one && matches(one, fun)) {
                return true;
            }
            if (cond instanceof Map<?, ?> withArgs && withArgs.size() == 1) {
                Map.Entry<?, ?> only = withArgs.entrySet().iterator().next();
                if (matches(String.valueOf(only.getKey()), fun) && args.satisfy(only.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A malformed regex in the config matches nothing (Salt logs it and refuses too). */
    static boolean matches(String regex, String fun) {
        try {
            return Pattern.compile(regex).matcher(fun).matches();
        } catch (PatternSyntaxException e) {
            return false;
        }
    }
}
