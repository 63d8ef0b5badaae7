package io.jsalt.minion.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one supervised process is doing, at one moment: what {@code supervisor.status} shows and what each
 * state change event carries.
 *
 * @param pid        the process id while there is a process, else 0 (Supervisor's getProcessInfo)
 * @param exitstatus the last exit code (128 + n after signal n), null before the first exit
 * @param since      when the process entered this state
 * @param started    when the current or last process was started, null if never
 * @param restarts   how many times it was started again without being asked (autorestart and backoff retries)
 * @param spawnerr   why the last start failed to run a process at all, else ""
 */
public record ProcessSnapshot(String name, String group, ProcessState state, long pid, Integer exitstatus,
        Instant since, Instant started, int restarts, String spawnerr) {

    private static final DateTimeFormatter STOP_TIME = DateTimeFormatter.ofPattern("MMM dd hh:mm a", Locale.ROOT);

    public String displayName() {
        return group.equals(name) ? name : group + ":" + name;
    }

    /** Supervisor's description column, e.g. {@code pid 4242, uptime 0:01:05} or {@code Not started}. */
    public String description() {
        return switch (state) {
            case RUNNING -> "pid " + pid + ", uptime " + uptime(Duration.between(started, Instant.now()));
            case STOPPED, EXITED -> started == null ? "Not started" : STOP_TIME.format(since.atZone(ZoneId.systemDefault()));
            case BACKOFF, FATAL -> spawnerr.isEmpty() ? "Exited too quickly (process log may have details)" : spawnerr;
            default -> "";
        };
    }

    /** The data of the state change event: Supervisor's names where it has them. */
    public Map<String, Object> eventData() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", name);
        data.put("group", group);
        data.put("state", state.name());
        data.put("statecode", state.code());
        data.put("pid", pid);
        data.put("exitstatus", exitstatus);
        data.put("since", since.toEpochMilli() / 1000.0);
        data.put("restarts", restarts);
        data.put("description", description());
        return data;
    }

    private static String uptime(Duration d) {
        long s = Math.max(0, d.getSeconds());
        String clock = String.format(Locale.ROOT, "%d:%02d:%02d", (s / 3600) % 24, (s / 60) % 60, s % 60);
        long days = s / 86_400;
        return days > 0 ? days + (days == 1 ? " day, " : " days, ") + clock : clock;
    }
}
