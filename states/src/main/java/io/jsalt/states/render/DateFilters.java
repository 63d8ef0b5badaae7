package io.jsalt.states.render;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * Salt's {@code strftime} (and its alias {@code date_format}): a timestamp (a number, or a text of one) or a date in
 * the minion's local time, formatted with Python's {@code strftime} directives. Salt reads other date texts only
 * with the optional timelib, which a stock minion lacks; so does jsalt (Salt's words: "Unable to parse ...").
 */
final class DateFilters {
    private DateFilters() {
    }

    static SaltFilter strftime(String name) {
        return new SaltFilter(name, (value, args) -> format(date(value), args.text(0, "format", "%Y-%m-%d")));
    }

    private static TemporalAccessor date(Object value) {
        if (value == null) {
            return ZonedDateTime.now();
        }
        if (value instanceof TemporalAccessor t && t.isSupported(ChronoField.YEAR)) {
            return t;
        }
        if (value instanceof com.hubspot.jinjava.objects.date.PyishDate d) {
            return d.toDateTime();
        }
        Object n = value instanceof CharSequence ? TextFilters.toNum(value) : value;
        if (n instanceof Number number && !(n instanceof Boolean)) {
            long millis = Math.round(number.doubleValue() * 1000);
            return Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault());
        }
        throw new RenderException("Unable to parse " + PythonValues.str(value) + ". Consider installing timelib");
    }

    /** Python's {@code strftime} directives (C locale). */
    static String format(TemporalAccessor t, String pattern) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                out.append(c);
                continue;
            }
            char d = pattern.charAt(++i);
            out.append(switch (d) {
                case 'Y' -> String.valueOf(t.get(ChronoField.YEAR));
                case 'y' -> two(t.get(ChronoField.YEAR) % 100);
                case 'm' -> two(t.get(ChronoField.MONTH_OF_YEAR));
                case 'd' -> two(t.get(ChronoField.DAY_OF_MONTH));
                case 'H' -> two(t.get(ChronoField.HOUR_OF_DAY));
                case 'I' -> two(t.get(ChronoField.CLOCK_HOUR_OF_AMPM));
                case 'M' -> two(t.get(ChronoField.MINUTE_OF_HOUR));
                case 'S' -> two(t.get(ChronoField.SECOND_OF_MINUTE));
                case 'f' -> String.format("%06d", t.get(ChronoField.MICRO_OF_SECOND));
                case 'p' -> t.get(ChronoField.AMPM_OF_DAY) == 0 ? "AM" : "PM";
                case 'j' -> String.format("%03d", t.get(ChronoField.DAY_OF_YEAR));
                case 'b', 'h' -> java.time.Month.of(t.get(ChronoField.MONTH_OF_YEAR)).getDisplayName(TextStyle.SHORT, Locale.US);
                case 'B' -> java.time.Month.of(t.get(ChronoField.MONTH_OF_YEAR)).getDisplayName(TextStyle.FULL, Locale.US);
                case 'a' -> java.time.DayOfWeek.of(t.get(ChronoField.DAY_OF_WEEK)).getDisplayName(TextStyle.SHORT, Locale.US);
                case 'A' -> java.time.DayOfWeek.of(t.get(ChronoField.DAY_OF_WEEK)).getDisplayName(TextStyle.FULL, Locale.US);
                case 'w' -> String.valueOf(t.get(ChronoField.DAY_OF_WEEK) % 7);
                case 'z' -> t.isSupported(ChronoField.OFFSET_SECONDS) ? DateTimeFormatter.ofPattern("xx").format(t) : "";
                case 'Z' -> t instanceof ZonedDateTime z ? z.getZone().getDisplayName(TextStyle.SHORT, Locale.US) : "";
                case 's' -> t.isSupported(ChronoField.INSTANT_SECONDS) ? String.valueOf(t.getLong(ChronoField.INSTANT_SECONDS)) : "";
                case 'F' -> t.get(ChronoField.YEAR) + "-" + two(t.get(ChronoField.MONTH_OF_YEAR)) + "-"
                        + two(t.get(ChronoField.DAY_OF_MONTH));
                case 'T' -> two(t.get(ChronoField.HOUR_OF_DAY)) + ":" + two(t.get(ChronoField.MINUTE_OF_HOUR)) + ":"
                        + two(t.get(ChronoField.SECOND_OF_MINUTE));
                case '%' -> "%";
                default -> "%" + d;
            });
        }
        return out.toString();
    }

    private static String two(int n) {
        return String.format("%02d", n);
    }
}
