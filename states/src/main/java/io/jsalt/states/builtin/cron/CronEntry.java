package io.jsalt.states.builtin.cron;

import java.util.Objects;

/**
 * One job of a crontab, as Salt's cron module reads it: the five time fields or a {@code special} ({@code @daily}),
 * the command, Salt's identifier and comment (from the comment line above it) and whether it is {@code #DISABLED#}.
 * Fields are null where Salt's are None.
 */
public final class CronEntry {
    String minute;
    String hour;
    String daymonth;
    String month;
    String dayweek;
    String spec;
    String cmd;
    String identifier;
    String comment;
    boolean commented;

    static CronEntry timed(String minute, String hour, String daymonth, String month, String dayweek, String cmd) {
        CronEntry e = new CronEntry();
        e.minute = minute;
        e.hour = hour;
        e.daymonth = daymonth;
        e.month = month;
        e.dayweek = dayweek;
        e.cmd = cmd;
        return e;
    }

    static CronEntry special(String spec, String cmd) {
        CronEntry e = new CronEntry();
        e.spec = spec;
        e.cmd = cmd;
        return e;
    }

    boolean isSpecial() {
        return spec != null;
    }

    /** Salt's _cron_id: the identifier, or "NO ID SET". */
    String id() {
        return identifier != null && !identifier.isEmpty() ? identifier : Crontab.NO_IDENTIFIER;
    }

    /**
     * Salt's _cron_matched: by identifier when the job has one (or the one asked for, for a job written before
     * identifiers), else by command.
     */
    boolean matches(String command, String wantedId) {
        String cid = id();
        String eid = wantedId == null || wantedId.isEmpty() ? Crontab.NO_IDENTIFIER : wantedId;
        Boolean idMatched;
        if (!Objects.equals(cmd, command) && cid.equals(Crontab.NO_IDENTIFIER) && eid.equals(Crontab.NO_IDENTIFIER)) {
            idMatched = false;
        } else {
            if (Objects.equals(cmd, command) && cid.equals(Crontab.NO_IDENTIFIER)) {
                cid = eid;
            }
            idMatched = eid.equals(cid);
        }
        return idMatched;
    }

    /** Salt's _needs_change: a new value that is given and differs ('random' only replaces '*'). */
    static boolean needsChange(Object old, Object wanted) {
        if (Objects.equals(old, wanted)) {
            return false;
        }
        if ("random".equals(wanted)) {
            return "*".equals(old);
        }
        return wanted != null;
    }
}
