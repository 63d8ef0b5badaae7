package io.jsalt.states.builtin.cron;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Salt's cron functions on one user's crontab ({@code set_job}, {@code set_special}, {@code rm_job},
 * {@code rm_special}): each answers as Salt's do, {@code new}, {@code updated}, {@code present}, {@code removed},
 * {@code absent}, or the error text of a failed write.
 */
public final class CronJobs {
    private final CrontabStore store;
    private final String user;

    public CronJobs(CrontabStore store, String user) {
        this.store = store;
        this.user = user;
    }

    public Crontab list() {
        return Crontab.parse(store.read(user));
    }

    /** Salt's set_job; time fields are lower-cased text, 'random' picks a value once. */
    public String setJob(String minute, String hour, String daymonth, String month, String dayweek, String cmd,
            boolean commented, String comment, String identifier) {
        Crontab tab = list();
        for (CronEntry cron : all(tab)) {
            if (!cron.matches(cmd, identifier)) {
                continue;
            }
            if (!changed(cron, comment, commented, identifier, cmd, minute, hour, daymonth, month, dayweek, null)) {
                return "present";
            }
            String cid = removeFound(cron, cmd);
            String m = keep(cron.minute, minute);
            String h = keep(cron.hour, hour);
            String dm = keep(cron.daymonth, daymonth);
            String mo = keep(cron.month, month);
            String dw = keep(cron.dayweek, dayweek);
            boolean c = CronEntry.needsChange(cron.commented, commented) ? commented : cron.commented;
            String com = keep(cron.comment, comment);
            String[] ids = idAfterUpdate(cron, cid, cmd, identifier);
            String jret = setJob(m, h, dm, mo, dw, ids[0], c, com, ids[1]);
            return jret.equals("new") ? "updated" : jret;
        }
        CronEntry cron = CronEntry.timed(pick(minute, 0, 59), pick(hour, 0, 23), daymonth, pick(month, 1, 12),
                pick(dayweek, 0, 6), cmd);
        if ("random".equals(daymonth)) {
            int max = List.of("1", "3", "5", "7", "8", "10", "12").contains(cron.month) ? 31
                    : List.of("4", "6", "9", "11").contains(cron.month) ? 30 : 28;
            cron.daymonth = String.valueOf(ThreadLocalRandom.current().nextInt(1, max + 1));
        }
        cron.identifier = identifier;
        cron.comment = comment;
        cron.commented = commented;
        tab.crons.add(cron);
        String error = store.write(user, tab.render());
        return error == null ? "new" : error;
    }

    /** Salt's set_special ({@code @hourly}, {@code @reboot}, ...). */
    public String setSpecial(String special, String cmd, boolean commented, String comment, String identifier) {
        Crontab tab = list();
        for (CronEntry cron : all(tab)) {
            if (!cron.matches(cmd, identifier)) {
                continue;
            }
            if (!changed(cron, comment, commented, identifier, cmd, null, null, null, null, null, special)) {
                return "present";
            }
            String cid = removeFound(cron, cmd);
            String sp = keep(cron.spec, special);
            boolean c = CronEntry.needsChange(cron.commented, commented) ? commented : cron.commented;
            String com = keep(cron.comment, comment);
            String[] ids = idAfterUpdate(cron, cid, cmd, identifier);
            String jret = setSpecial(sp, ids[0], c, com, ids[1]);
            return jret.equals("new") ? "updated" : jret;
        }
        CronEntry cron = CronEntry.special(special, cmd);
        cron.identifier = identifier;
        cron.comment = comment;
        cron.commented = commented;
        tab.special.add(cron);
        String error = store.write(user, tab.render());
        return error == null ? "new" : error;
    }

    /** Salt's rm_job without time fields: the first job that matches. */
    public String rmJob(String cmd, String identifier) {
        Crontab tab = list();
        for (CronEntry cron : tab.crons) {
            if (cron.matches(cmd, identifier)) {
                tab.crons.remove(cron);
                String error = store.write(user, tab.render());
                return error == null ? "removed" : error;
            }
        }
        return "absent";
    }

    /** Salt's rm_special; the crontab is written back even when nothing matched, as Salt does. */
    public String rmSpecial(String cmd, String special, String identifier) {
        Crontab tab = list();
        String ret = "absent";
        for (CronEntry cron : tab.special) {
            if (cron.matches(cmd, identifier) && (special == null || special.equals(cron.spec))) {
                tab.special.remove(cron);
                ret = "removed";
                break;
            }
        }
        String error = store.write(user, tab.render());
        return error == null ? ret : error;
    }

    private static List<CronEntry> all(Crontab tab) {
        List<CronEntry> all = new java.util.ArrayList<>(tab.crons);
        all.addAll(tab.special);
        return all;
    }

    private static boolean changed(CronEntry cron, String comment, boolean commented, String identifier, String cmd,
            String minute, String hour, String daymonth, String month, String dayweek, String special) {
        String setId = cron.identifier == null ? Crontab.NO_IDENTIFIER : cron.identifier;
        boolean any = CronEntry.needsChange(cron.comment, comment) || CronEntry.needsChange(cron.commented, commented)
                || CronEntry.needsChange(identifier, setId)
                || CronEntry.needsChange(cron.minute, minute) || CronEntry.needsChange(cron.hour, hour)
                || CronEntry.needsChange(cron.daymonth, daymonth) || CronEntry.needsChange(cron.month, month)
                || CronEntry.needsChange(cron.dayweek, dayweek) || CronEntry.needsChange(cron.spec, special);
        return any || CronEntry.needsChange(cron.cmd, cmd); // Salt compares the command too (cid is always set)
    }

    /** Removes the job found before it is written again; returns its id. */
    private String removeFound(CronEntry cron, String cmd) {
        String cid = cron.id();
        if (cron.isSpecial()) {
            rmSpecial(cmd, null, cid);
        } else {
            rmJob(cmd, cid);
        }
        return cid;
    }

    /** Salt's choice of command and identifier for the rewritten job: {cmd, identifier}. */
    private static String[] idAfterUpdate(CronEntry cron, String cid, String cmd, String identifier) {
        String command = cmd;
        if (!CronEntry.needsChange(cron.cmd, cmd)) {
            command = cron.cmd;
            if (cid.equals(Crontab.NO_IDENTIFIER)) {
                if (identifier != null && !identifier.isEmpty()) {
                    cid = identifier;
                }
                if (cid.equals(Crontab.NO_IDENTIFIER) && cron.identifier == null) {
                    cid = null;
                }
            }
        }
        String id = cid == null || !CronEntry.needsChange(cid, identifier) ? cid : identifier;
        return new String[] {command, id};
    }

    private static String keep(String old, String wanted) {
        return CronEntry.needsChange(old, wanted) ? wanted : old;
    }

    /** Salt's _get_cron_date_time: 'random' or a 'low:high' range picks a value. */
    private static String pick(String value, int low, int high) {
        if ("random".equals(value)) {
            return String.valueOf(ThreadLocalRandom.current().nextInt(low, high + 1));
        }
        String[] range = value.split(":");
        if (range.length == 2 && range[0].matches("\\d+") && range[1].matches("\\d+")) {
            int a = Integer.parseInt(range[0]);
            int b = Integer.parseInt(range[1]);
            return String.valueOf(ThreadLocalRandom.current().nextInt(Math.min(a, b), Math.max(a, b) + 1));
        }
        return value;
    }
}
