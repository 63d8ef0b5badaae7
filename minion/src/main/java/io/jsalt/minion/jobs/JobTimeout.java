package io.jsalt.minion.jobs;

import java.time.Duration;
import java.util.Map;

/**
 * A job's own deadline, from its publication: {@code timeout} (seconds) at the top of the load, or inside
 * the {@code kwargs} map that a publish request's kwargs travel in. Salt's minion has no such deadline (a
 * killed salt job is killed by hand); jsalt ends the job as {@code saltutil.kill_job} would and answers an
 * error. Anything but a positive number means no deadline.
 */
public final class JobTimeout {
    /** A day: a longer deadline is a typo, and the job's own limits still apply. */
    private static final double MAX_SECONDS = 86_400;

    private JobTimeout() {
    }

    /** The deadline of the job in {@code load}; null when it has none. */
    public static Duration of(Map<String, Object> load) {
        Object value = load.get("timeout");
        if (value == null && load.get("kwargs") instanceof Map<?, ?> kwargs) {
            value = kwargs.get("timeout");
        }
        double seconds;
        if (value instanceof Number n) {
            seconds = n.doubleValue();
        } else if (value instanceof String s) {
            try {
                seconds = Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            return null;
        }
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            return null;
        }
        return Duration.ofMillis((long) (Math.min(seconds, MAX_SECONDS) * 1000));
    }
}
