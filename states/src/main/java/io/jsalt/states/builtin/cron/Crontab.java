package io.jsalt.states.builtin.cron;

import java.util.ArrayList;
import java.util.List;

/**
 * A user's crontab as Salt's cron module sees it: the lines before Salt's tag are kept as they are, the lines after
 * it are Salt's: environment assignments, jobs, special jobs, each job with an optional comment line carrying
 * {@code SALT_CRON_IDENTIFIER:<id>}. {@link #parse} is Salt's {@code list_tab}, {@link #render} its {@code _render_tab}.
 */
public final class Crontab {
    static final String TAG = "# Lines below here are managed by Salt, do not edit";
    static final String IDENTIFIER = "SALT_CRON_IDENTIFIER";
    static final String NO_IDENTIFIER = "NO ID SET";

    final List<String> pre = new ArrayList<>();
    final List<String[]> env = new ArrayList<>();
    final List<CronEntry> crons = new ArrayList<>();
    final List<CronEntry> special = new ArrayList<>();

    static Crontab parse(String text) {
        Crontab tab = new Crontab();
        boolean salts = false;
        String comment = null;
        String identifier = null;
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1); // Python's splitlines: no empty line after the last new line
        }
        for (String line : lines) {
            if (line.equals(TAG)) {
                salts = true;
                continue;
            }
            if (!salts) {
                tab.pre.add(line);
                continue;
            }
            boolean disabled = line.startsWith("#DISABLED#");
            if (disabled) {
                line = line.substring("#DISABLED#".length());
            }
            if (line.startsWith("@")) {
                String[] comps = line.trim().split("\\s+", 2);
                if (comps.length < 2) {
                    continue;
                }
                CronEntry e = CronEntry.special(comps[0], String.join(" ", comps[1].trim().split("\\s+")));
                e.identifier = identifier;
                e.comment = comment;
                e.commented = disabled;
                tab.special.add(e);
                identifier = null;
                comment = null;
            } else if (line.startsWith("#")) {
                String text2 = line.replaceFirst("^[# ]+", "");
                int at = text2.indexOf(IDENTIFIER);
                if (at >= 0) {
                    String after = text2.substring(at + IDENTIFIER.length());
                    text2 = text2.substring(0, at).stripTrailing();
                    if (after.length() > 1) {
                        identifier = after.substring(1);
                    }
                }
                comment = comment == null ? text2 : comment + "\n" + text2;
            } else if (line.indexOf('=') > 0 && (line.indexOf(' ') < 0 || line.indexOf('=') < line.indexOf(' '))) {
                String[] comps = line.split("=", 2);
                tab.env.add(new String[] {comps[0], comps[1]});
            } else if (line.split(" ", -1).length > 5) {
                String[] comps = line.split(" ", -1);
                List<String> rest = List.of(comps).subList(5, comps.length);
                CronEntry e = CronEntry.timed(comps[0], comps[1], comps[2], comps[3], comps[4], String.join(" ", rest));
                e.identifier = identifier;
                e.comment = comment;
                e.commented = disabled;
                tab.crons.add(e);
                identifier = null;
                comment = null;
            }
        }
        return tab;
    }

    String render() {
        StringBuilder out = new StringBuilder();
        for (String line : pre) {
            out.append(line).append('\n');
        }
        out.append(TAG).append('\n');
        for (String[] e : env) {
            out.append(e[0]).append('=').append(e[1] == null || e[1].isEmpty() ? "\"\"" : e[1]).append('\n');
        }
        for (CronEntry e : crons) {
            commentLine(out, e, false);
            out.append(e.commented ? "#DISABLED#" : "").append(String.join(" ", e.minute, e.hour, e.daymonth, e.month,
                    e.dayweek, e.cmd)).append('\n');
        }
        for (CronEntry e : special) {
            commentLine(out, e, true);
            out.append(e.commented ? "#DISABLED#" : "").append(e.spec).append(' ').append(e.cmd).append('\n');
        }
        return out.toString();
    }

    private static void commentLine(StringBuilder out, CronEntry e, boolean strip) {
        if (e.comment == null && e.identifier == null) {
            return;
        }
        out.append('#');
        if (e.comment != null && !e.comment.isEmpty()) {
            out.append(' ').append((strip ? e.comment.stripTrailing() : e.comment).replace("\n", "\n# "));
        }
        if (e.identifier != null && !e.identifier.isEmpty()) {
            out.append(' ').append(IDENTIFIER).append(':').append(e.identifier);
        }
        out.append('\n');
    }

    /**
     * Salt's _check_cron: {@code absent}, {@code present} (as asked) or {@code update} for the job of that command
     * or identifier, among the special jobs when {@code special} is given, else among the timed ones. Null arguments
     * are not compared.
     */
    public String status(String cmd, String identifier, String special, String comment, Boolean commented,
            String minute, String hour, String daymonth, String month, String dayweek) {
        for (CronEntry cron : special == null ? crons : this.special) {
            if (!cron.matches(cmd, identifier)) {
                continue;
            }
            boolean update = CronEntry.needsChange(cron.identifier, identifier) || CronEntry.needsChange(cron.cmd, cmd)
                    || CronEntry.needsChange(cron.comment, comment) || CronEntry.needsChange(cron.commented, commented);
            if (special == null) {
                update |= CronEntry.needsChange(cron.minute, minute) || CronEntry.needsChange(cron.hour, hour)
                        || CronEntry.needsChange(cron.daymonth, daymonth) || CronEntry.needsChange(cron.month, month)
                        || CronEntry.needsChange(cron.dayweek, dayweek);
            } else {
                update |= CronEntry.needsChange(cron.spec, special);
            }
            return update ? "update" : "present";
        }
        return "absent";
    }
}
