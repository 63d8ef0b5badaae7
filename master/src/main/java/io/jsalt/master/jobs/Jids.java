package io.jsalt.master.jobs;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Job ids as Salt makes them: UTC {@code %Y%m%d%H%M%S%f}, 20 digits (too many for a long, hence the
 * count in epoch microseconds). Two jobs in the same microsecond get consecutive ids instead of colliding
 * (Salt needs unique_jid for that).
 */
public final class Jids {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSSSSS");

    private final AtomicLong lastMicros = new AtomicLong();

    public String next() {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        long micros = lastMicros.accumulateAndGet(now, (prev, t) -> t > prev ? t : prev + 1);
        Instant at = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC).format(FORMAT);
    }

    public static boolean isValid(String jid) {
        return jid != null && jid.matches("[0-9]{20}");
    }
}
