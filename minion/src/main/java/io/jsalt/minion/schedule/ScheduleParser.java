package io.jsalt.minion.schedule;

import io.jsalt.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads the minion's {@code schedule} mapping, Salt's interval form:
 * <pre>
 * schedule:
 *   &lt;name&gt;:                 # [A-Za-z0-9._-]{1,64}
 *     function: test.ping    # required, a function this minion has
 *     seconds: 30            # interval = seconds + 60 minutes + 3600 hours + 86400 days, at least 1 s
 *     minutes: 0
 *     hours: 0
 *     days: 0
 *     splay: 10              # first run after a random 0..10 s; or {start: 5, end: 10}
 *     args: [a, b]           # or job_args
 *     kwargs: {k: v}         # or job_kwargs
 *     run_on_start: true     # false: the first run waits one interval too
 *     enabled: true          # false: kept in the file, not run
 * </pre>
 * Anything else (Salt's when, cron, once, range, returner, ...) is refused with the key's name, so a
 * schedule never silently does less than its file says. Errors are {@link ConfigException}s naming
 * {@code schedule.<name>.<key>}.
 */
public final class ScheduleParser {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Set<String> KEYS = Set.of("function", "seconds", "minutes", "hours", "days", "splay", "args",
            "job_args", "kwargs", "job_kwargs", "run_on_start", "enabled");
    private static final long MAX_SECONDS = 366L * 86_400;

    private final Path file;
    private final Predicate<String> knownFunction;

    /**
     * @param file          the config file, for messages
     * @param knownFunction whether this minion has a function of that name
     */
    public ScheduleParser(Path file, Predicate<String> knownFunction) {
        this.file = file;
        this.knownFunction = knownFunction;
    }

    /** The enabled jobs of {@code schedule}, in file order. */
    public List<ScheduledJob> parse(Map<String, Object> schedule) {
        List<ScheduledJob> jobs = new ArrayList<>();
        for (Map.Entry<String, Object> e : schedule.entrySet()) {
            String name = e.getKey();
            if (!NAME.matcher(name).matches()) {
                throw refuse("schedule", "job names of 1 to 64 characters from A-Z a-z 0-9 . _ -", name);
            }
            if (!(e.getValue() instanceof Map<?, ?> raw) || !raw.keySet().stream().allMatch(String.class::isInstance)) {
                throw refuse("schedule." + name, "a mapping with function, seconds, ...", e.getValue());
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> job = (Map<String, Object>) raw;
            ScheduledJob parsed = job(name, job);
            if (parsed != null) {
                jobs.add(parsed);
            }
        }
        return jobs;
    }

    private ScheduledJob job(String name, Map<String, Object> job) {
        String at = "schedule." + name + ".";
        for (String key : job.keySet()) {
            if (!KEYS.contains(key)) {
                throw refuse(at + key, "one of " + new java.util.TreeSet<>(KEYS) + " (jsalt runs interval schedules only)", key);
            }
        }
        boolean enabled = bool(job, at, "enabled", true);
        Object function = job.get("function");
        if (!(function instanceof String f) || f.isBlank()) {
            throw refuse(at + "function", "the name of an execution function, like test.ping", function);
        }
        if (!knownFunction.test(f)) {
            throw refuse(at + "function", "a function this minion has (see sys.list_functions)", f);
        }
        long seconds = count(job, at, "seconds", 1) + count(job, at, "minutes", 60) + count(job, at, "hours", 3600)
                + count(job, at, "days", 86_400);
        if (seconds < 1 || seconds > MAX_SECONDS) {
            throw refuse(at + "seconds", "an interval from seconds, minutes, hours, days of 1 s to 366 days", job.get("seconds"));
        }
        long[] splay = splay(job.get("splay"), at + "splay");
        List<Object> args = list(job, at, "args", "job_args");
        Map<String, Object> kwargs = map(job, at, "kwargs", "job_kwargs");
        boolean runOnStart = bool(job, at, "run_on_start", true);
        if (!enabled) {
            return null;
        }
        return new ScheduledJob(name, f, Duration.ofSeconds(seconds), Duration.ofSeconds(splay[0]), Duration.ofSeconds(splay[1]),
                args, kwargs, runOnStart);
    }

    private long count(Map<String, Object> job, String at, String key, long unit) {
        Object v = job.get(key);
        if (v == null) {
            return 0;
        }
        if (!isWhole(v)) {
            throw refuse(at + key, "a whole number of " + key + " >= 0", v);
        }
        return ((Number) v).longValue() * unit;
    }

    private long[] splay(Object v, String key) {
        if (v == null) {
            return new long[] {0, 0};
        }
        String expected = "seconds as a whole number >= 0, or {start: S, end: E} with 0 <= S <= E";
        if (v instanceof Map<?, ?> m) {
            if (!m.keySet().equals(Set.of("start", "end"))) {
                throw refuse(key, expected, v);
            }
            long start = whole(m.get("start"), key, expected);
            long end = whole(m.get("end"), key, expected);
            if (start > end) {
                throw refuse(key, expected, v);
            }
            return new long[] {start, end};
        }
        return new long[] {0, whole(v, key, expected)};
    }

    private long whole(Object v, String key, String expected) {
        if (!isWhole(v)) {
            throw refuse(key, expected, v);
        }
        return ((Number) v).longValue();
    }

    /** A YAML integer in 0..366 days (larger ones come as Long or BigInteger and are refused by range). */
    private static boolean isWhole(Object v) {
        return (v instanceof Integer || v instanceof Long) && ((Number) v).longValue() >= 0 && ((Number) v).longValue() <= MAX_SECONDS;
    }

    private List<Object> list(Map<String, Object> job, String at, String key, String alias) {
        Object v = one(job, at, key, alias);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw refuse(at + key, "a list of arguments", v);
        }
        return new ArrayList<>(l);
    }

    private Map<String, Object> map(Map<String, Object> job, String at, String key, String alias) {
        Object v = one(job, at, key, alias);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m) || !m.keySet().stream().allMatch(String.class::isInstance)) {
            throw refuse(at + key, "a mapping of argument names to values", v);
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        m.forEach((k, val) -> copy.put((String) k, val));
        return copy;
    }

    private Object one(Map<String, Object> job, String at, String key, String alias) {
        if (job.containsKey(key) && job.containsKey(alias)) {
            throw refuse(at + alias, "either " + key + " or " + alias + ", not both", job.get(alias));
        }
        return job.containsKey(key) ? job.get(key) : job.get(alias);
    }

    private boolean bool(Map<String, Object> job, String at, String key, boolean dflt) {
        Object v = job.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Boolean b)) {
            throw refuse(at + key, "true or false", v);
        }
        return b;
    }

    private ConfigException refuse(String key, String expected, Object got) {
        return new ConfigException(file, key, expected, got);
    }
}
