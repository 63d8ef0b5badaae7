package io.jsalt.modules.builtin;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Salt's {@code status.uptime} dict, computed from the seconds since boot and the current time.
 *
 * @param seconds  whole seconds since boot
 * @param nowMillis the current time, in milliseconds since the epoch
 * @param users    the number of distinct logged-in users
 */
record UptimeReport(long seconds, long nowMillis, int users) {

    /** Python's naive {@code datetime.isoformat()}: microseconds only when there are some. */
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    Map<String, Object> toMap() {
        long bootMillis = nowMillis - seconds * 1000;
        LocalDateTime boot = LocalDateTime.ofInstant(Instant.ofEpochMilli(bootMillis), ZoneOffset.UTC);
        int micros = boot.getNano() / 1000;
        String iso = ISO_SECONDS.format(boot) + (micros == 0 ? "" : String.format(".%06d", micros));
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("seconds", seconds);
        ret.put("since_iso", iso);
        // Salt computes since_t with time.mktime on a UTC time, which is only right on UTC hosts; this is the true epoch
        ret.put("since_t", (double) Math.floorDiv(bootMillis, 1000));
        ret.put("days", seconds / 86400);
        ret.put("time", String.format("%d:%02d", seconds / 3600 % 24, seconds / 60 % 60));
        ret.put("users", users);
        return ret;
    }
}
