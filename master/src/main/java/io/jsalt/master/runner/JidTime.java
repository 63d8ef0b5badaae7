package io.jsalt.master.runner;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * A jid is its job's start time (UTC {@code %Y%m%d%H%M%S%f}). This turns it into Salt's {@code StartTime}
 * text ({@code 2026, Nov 22 09:15:20.123456}, salt.utils.jid.jid_to_time) and an operator's time into the
 * jid at that instant, so that time filters are jid comparisons.
 */
final class JidTime {
    private static final DateTimeFormatter JID = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSSSSS");
    private static final DateTimeFormatter START_TIME = DateTimeFormatter.ofPattern("yyyy, MMM dd HH:mm:ss.SSSSSS", Locale.ENGLISH);
    /** Salt's StartTime, and what its docs show ({@code 2015, Mar 16 19:00}): seconds and fraction optional. */
    private static final DateTimeFormatter SALT_STYLE = new DateTimeFormatterBuilder().parseCaseInsensitive()
            .appendPattern("yyyy, MMM d")
            .optionalStart().appendPattern(" HH:mm").optionalStart().appendPattern(":ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .optionalEnd().optionalEnd()
            .parseDefaulting(ChronoField.HOUR_OF_DAY, 0).parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
            .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
            .toFormatter(Locale.ENGLISH);
    /** ISO-8601: a date, or a date and time (T or a space), with an optional offset; no offset means UTC. */
    private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder().parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().optionalStart().appendLiteral('T').optionalEnd().optionalStart().appendLiteral(' ').optionalEnd()
            .appendPattern("HH:mm").optionalStart().appendPattern(":ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd().optionalEnd()
            .optionalEnd()
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .parseDefaulting(ChronoField.HOUR_OF_DAY, 0).parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
            .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
            .toFormatter(Locale.ENGLISH);

    private JidTime() {
    }

    /** Salt's StartTime of a jid, or "" when it is not a jid (as jid_to_time). */
    static String startTime(String jid) {
        if (jid == null || !jid.matches("[0-9]{20}")) {
            return "";
        }
        try {
            return LocalDateTime.parse(jid, JID).format(START_TIME);
        } catch (DateTimeParseException e) {
            return "";
        }
    }

    /**
     * The jid of the instant an operator wrote, in Salt's StartTime form or ISO-8601 (UTC unless an offset
     * is given); precision beyond microseconds is dropped.
     *
     * @throws RunnerException naming both accepted forms when the text is neither
     */
    static String jidAt(String argument, String text) {
        String t = text.trim();
        LocalDateTime utc;
        try {
            utc = LocalDateTime.parse(t, SALT_STYLE);
        } catch (DateTimeParseException notSaltStyle) {
            try {
                var parsed = ISO.parseBest(t, OffsetDateTime::from, LocalDateTime::from);
                utc = parsed instanceof OffsetDateTime o
                        ? o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime() : (LocalDateTime) parsed;
            } catch (DateTimeParseException notIso) {
                throw new RunnerException(argument + ": cannot read '" + text + "' as a time: write it as Salt shows"
                        + " StartTime ('2026, Nov 22 09:15:20.123456') or in ISO-8601 ('2026-11-22T09:15:20Z')");
            }
        }
        return utc.truncatedTo(ChronoUnit.MICROS).format(JID);
    }
}
