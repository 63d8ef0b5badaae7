package io.jsalt.minion.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * One entry of the minion's {@code schedule}: run {@code function} with {@code args} and {@code kwargs}
 * every {@code interval}; the first run comes after a random splay in [splayStart, splayEnd] (plus one
 * interval when {@code runOnStart} is off), so minions started together do not all run at once.
 */
public record ScheduledJob(String name, String function, Duration interval, Duration splayStart, Duration splayEnd,
        List<Object> args, Map<String, Object> kwargs, boolean runOnStart) {

    public ScheduledJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive");
        }
        if (splayStart.isNegative() || splayEnd.compareTo(splayStart) < 0) {
            throw new IllegalArgumentException("splay must be 0 <= start <= end");
        }
        args = List.copyOf(args);
        kwargs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
    }

    /** The delay before the first run: a uniform splay, plus one interval unless run_on_start. */
    public Duration firstDelay(RandomGenerator random) {
        long splayMs = splayStart.toMillis() + random.nextLong(splayEnd.toMillis() - splayStart.toMillis() + 1);
        return Duration.ofMillis(splayMs).plus(runOnStart ? Duration.ZERO : interval);
    }

    /** The arguments as they travel in a job: the positional ones, then the kwargs as Salt's {@code __kwarg__} map. */
    public List<Object> wireArgs() {
        List<Object> wire = new ArrayList<>(args);
        if (!kwargs.isEmpty()) {
            Map<String, Object> kw = new LinkedHashMap<>(kwargs);
            kw.put("__kwarg__", true);
            wire.add(kw);
        }
        return wire;
    }
}
