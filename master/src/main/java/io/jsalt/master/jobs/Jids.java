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
 * (Salt needs unique_jid for that). Masters sharing a job cache each get a slot ({@link #useSlot}): the
 * microseconds of a master's jids are then its slot modulo the number of slots, so no two masters can make
 * the same jid, and a jid stays Salt's 20 digits and its time (to within {@code slots} microseconds).
 */
public final class Jids {
    /** Compiled once: every return is checked ({@code String.matches} compiles its pattern on each call). */
    private static final java.util.regex.Pattern JID = java.util.regex.Pattern.compile("[0-9]{20}");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSSSSS");

    private record Slot(int slot, int slots) {}

    private final AtomicLong lastMicros = new AtomicLong();
    private volatile Slot slot = new Slot(0, 1);

    public String next() {
        Slot s = slot;
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        long micros = lastMicros.accumulateAndGet(now, (prev, t) -> align(Math.max(t, prev + 1), s));
        Instant at = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC).format(FORMAT);
    }

    /** From now on, jids whose microseconds are {@code slot} modulo {@code slots}; {@code (0, 1)} is every microsecond. */
    public void useSlot(int slot, int slots) {
        if (slots < 1 || slot < 0 || slot >= slots) {
            throw new IllegalArgumentException("slot " + slot + " of " + slots);
        }
        this.slot = new Slot(slot, slots);
    }

    /** The first microsecond at or after {@code micros} that belongs to the slot. */
    private static long align(long micros, Slot s) {
        long off = Math.floorMod(micros - s.slot(), s.slots());
        return off == 0 ? micros : micros + (s.slots() - off);
    }

    public static boolean isValid(String jid) {
        return jid != null && JID.matcher(jid).matches();
    }
}
