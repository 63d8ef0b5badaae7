package io.jsalt.states.builtin;

import io.jsalt.states.builtin.cron.CronJobs;
import io.jsalt.states.builtin.cron.Crontab;
import io.jsalt.states.builtin.cron.CrontabStore;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code cron.present} and {@code cron.absent} (salt/states/cron.py): a job in a user's crontab, found by
 * its {@code SALT_CRON_IDENTIFIER} (the command by default), with Salt's comments and {@code {user: cmd}} changes.
 */
public final class CronStates {
    private static final List<String> PRESENT_ARGS = List.of("user", "minute", "hour", "daymonth", "month", "dayweek",
            "comment", "commented", "identifier", "special");

    private final CrontabStore store;

    CronStates(CrontabStore store) {
        this.store = store;
    }

    public static void register(StateFunctions functions) {
        new CronStates(CrontabStore.host()).addTo(functions);
    }

    void addTo(StateFunctions functions) {
        functions.add("cron.present", this::present).add("cron.absent", this::absent);
    }

    StateResult present(StateCall call) {
        call.allowOnly("cron.present", PRESENT_ARGS);
        String name = call.name().strip();
        String user = call.args().containsKey("user") ? call.string("user") : "root";
        String identifier = identifier(call, name);
        String special = call.string("special");
        String comment = call.string("comment");
        boolean commented = call.flag("commented", false);
        String minute = field(call, "minute");
        String hour = field(call, "hour");
        String daymonth = field(call, "daymonth");
        String month = field(call, "month");
        String dayweek = field(call, "dayweek");
        String bad = malformed(name, identifier, special, minute, hour, daymonth, month, dayweek);
        if (bad != null) {
            return StateResult.failed(bad);
        }
        CronJobs jobs = new CronJobs(store, user);
        if (call.test()) {
            String status = jobs.list().status(name, identifier, special, comment, commented,
                    minute, hour, daymonth, month, dayweek);
            return switch (status) {
                case "present" -> StateResult.ok("Cron " + name + " already present");
                case "update" -> StateResult.wouldChange(Map.of(), "Cron " + name + " is set to be updated");
                default -> StateResult.wouldChange(Map.of(), "Cron " + name + " is set to be added");
            };
        }
        String data = special == null
                ? jobs.setJob(minute, hour, daymonth, month, dayweek, name, commented, comment, identifier)
                : jobs.setSpecial(special, name, commented, comment, identifier);
        return switch (data) {
            case "present" -> StateResult.ok("Cron " + name + " already present");
            case "new" -> StateResult.changed(Map.of(user, name), "Cron " + name + " added to " + user + "'s crontab");
            case "updated" -> StateResult.changed(Map.of(user, name), "Cron " + name + " updated");
            default -> StateResult.failed("Cron " + name + " for user " + user + " failed to commit with error \n" + data);
        };
    }

    StateResult absent(StateCall call) {
        call.allowOnly("cron.absent", List.of("user", "identifier", "special"));
        String name = call.name().strip();
        String user = call.args().containsKey("user") ? call.string("user") : "root";
        String identifier = identifier(call, name);
        String special = call.string("special");
        CronJobs jobs = new CronJobs(store, user);
        if (call.test()) {
            // Salt's test looks among the timed jobs only (its _check_cron is called without special)
            String status = jobs.list().status(name, identifier, null, null, null,
                    null, null, null, null, null);
            return status.equals("absent") ? StateResult.ok("Cron " + name + " is absent")
                    : StateResult.wouldChange(Map.of(), "Cron " + name + " is set to be removed");
        }
        String data = special == null ? jobs.rmJob(name, identifier) : jobs.rmSpecial(name, special, identifier);
        return switch (data) {
            case "absent" -> StateResult.ok("Cron " + name + " already absent");
            case "removed" -> StateResult.changed(Map.of(user, name), "Cron " + name + " removed from " + user
                    + "'s crontab");
            default -> StateResult.failed("Cron " + name + " for user " + user + " failed to commit with error " + data);
        };
    }

    /**
     * What would break the crontab's lines (Salt writes them as given): a time field with spaces would shift the
     * command, a new line in the command or identifier would add a line of its own. Null when all is well.
     */
    private static String malformed(String cmd, String identifier, String special, String... fields) {
        if (cmd.isEmpty() || cmd.contains("\n") || identifier.contains("\n")) {
            return "Cron " + cmd.strip() + ": the command and the identifier must be one non-empty line";
        }
        if (special != null && !special.matches("@[a-z]+")) {
            return "Cron " + cmd + ": invalid special '" + special + "' (@reboot, @daily, ...)";
        }
        for (String field : fields) {
            if (field.isEmpty() || !field.matches("\\S+")) {
                return "Cron " + cmd + ": invalid time field '" + field + "' (no spaces allowed)";
            }
        }
        return null;
    }

    /** Salt's {@code identifier=False} default: the command itself. */
    private static String identifier(StateCall call, String name) {
        Object id = call.args().get("identifier");
        return id == null || Boolean.FALSE.equals(id) ? name : String.valueOf(id);
    }

    private static String field(StateCall call, String key) {
        return call.args().containsKey(key) ? call.string(key).toLowerCase() : "*";
    }
}
