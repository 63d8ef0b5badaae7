package io.jsalt.master.supervision;

import static io.jsalt.master.runner.Parameter.optional;

import io.jsalt.master.runner.Parameter;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import io.jsalt.master.runner.RunnerSignature;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.master.runner.Gathered;
import io.jsalt.master.runner.MinionJobs;
import io.jsalt.master.runner.RunnerException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import io.jsalt.transport.message.Topics;

/**
 * The fleet view of supervised processes, from the master's table of the minions' state events:
 * {@code supervisor.status} (data, for {@code --out json}) and {@code supervisor.table} (one line per process,
 * for people). Neither asks the minions anything: it shows what they last reported, how long ago, and whether
 * the minion is connected now (when it is not, its rows may be stale).
 * {@code supervisor.tail <minion> <program>} does ask: it runs the minion's {@code supervisor.tail} as a job.
 */
public final class SupervisorRunner implements RunnerModule {
    /** One minion id, as Salt allows them: no glob, no list. */
    private static final Pattern MINION_ID = Pattern.compile("[A-Za-z0-9._@-]{1,255}");
    private final FleetProcesses fleet;
    private final TargetResolver targets;
    private final Supplier<Set<String>> subscribedTopics;
    /** Runs supervisor.tail on a minion; null: the runner has no tail (tests of the table alone). */
    private final MinionJobs jobs;
    private final IntSupplier defaultTimeout;
    /** The longest a minion's supervisor.follow waits for output before it answers. */
    static final int MAX_FOLLOW_WAIT = 30;

    public SupervisorRunner(FleetProcesses fleet, TargetResolver targets, Supplier<Set<String>> subscribedTopics) {
        this(fleet, targets, subscribedTopics, null, () -> 5);
    }

    /**
     * @param subscribedTopics the publish socket's topics with a subscriber now: a minion that does not subscribe
     *                         its own is not connected, and its rows are what it said before it went away
     */
    public SupervisorRunner(FleetProcesses fleet, TargetResolver targets, Supplier<Set<String>> subscribedTopics,
            MinionJobs jobs, IntSupplier defaultTimeout) {
        this.fleet = fleet;
        this.targets = targets;
        this.subscribedTopics = subscribedTopics;
        this.jobs = jobs;
        this.defaultTimeout = defaultTimeout;
    }

    @Override
    public List<RunnerFunction> functions() {
        Parameter[] filters = {optional("tgt", Type.TARGET, "*"), optional("tgt_type", Type.STRING, "glob"),
                optional("program", Type.STRING, null), optional("state", Type.STRING, null)};
        return List.of(
                new RunnerFunction(RunnerSignature.of("supervisor.status", filters),
                        "The last reported state of every supervised process of the targeted minions: "
                                + "{minion: {process: {state, pid, exitstatus, since, restarts, ...}}}.",
                        a -> status(a.value("tgt"), a.string("tgt_type"), a.string("program"), a.string("state"))),
                new RunnerFunction(RunnerSignature.of("supervisor.table", filters),
                        "The same as supervisor.status, as a table: minion, process, state, description, last report.",
                        a -> table(status(a.value("tgt"), a.string("tgt_type"), a.string("program"), a.string("state")))),
                new RunnerFunction(RunnerSignature.of("supervisor.tail", Parameter.required("minion", Type.STRING),
                        Parameter.required("program", Type.STRING), optional("lines", Type.INTEGER, 10),
                        optional("timeout", Type.INTEGER, null)),
                        "The last lines of a process's stdout log on one minion (its supervisor.tail, run as a job).",
                        a -> tail(a.string("minion"), a.string("program"), a.integer("lines"), a.integer("timeout"))),
                new RunnerFunction(RunnerSignature.of("supervisor.follow", Parameter.required("minion", Type.STRING),
                        Parameter.required("program", Type.STRING), optional("offset", Type.ANY, null),
                        optional("lines", Type.INTEGER, 10), optional("wait", Type.INTEGER, 5)),
                        "One step of following a process's stdout log (jsalt-run supervisor.tail -f): {data, offset, "
                                + "rotated} after offset, or the last lines without one; fails at once when the minion is "
                                + "not connected.",
                        a -> follow(a.string("minion"), a.string("program"), a.value("offset"), a.integer("lines"),
                                a.integer("wait"))));
    }

    /** Runs {@code supervisor.tail program lines=N} on one minion and returns its answer. */
    Object tail(String minion, String program, int lines, Integer timeout) {
        if (jobs == null) {
            throw new RunnerException("supervisor.tail is not served here");
        }
        if (!MINION_ID.matcher(minion).matches()) {
            throw new RunnerException("supervisor.tail names one minion by its id, got " + minion);
        }
        int seconds = timeout == null || timeout <= 0 ? defaultTimeout.getAsInt() : timeout;
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("__kwarg__", true);
        kwargs.put("lines", lines);
        Gathered answer = jobs.run("supervisor.tail", List.of(program, kwargs), "root", "list", List.of(minion),
                Duration.ofSeconds(Math.max(1, Math.min(seconds, 300))));
        if (!answer.returns().containsKey(minion)) {
            throw new RunnerException(minion + " did not answer within " + seconds + " s (is it connected? "
                    + "jsalt-run manage.status)");
        }
        return answer.returns().get(minion);
    }

    /**
     * Runs {@code supervisor.follow program [offset=N] wait=S} on one connected minion and returns its
     * {@code {data, offset, rotated}}; the job's wait is bounded (at most {@value #MAX_FOLLOW_WAIT} s).
     */
    Object follow(String minion, String program, Object offset, int lines, int wait) {
        if (jobs == null) {
            throw new RunnerException("supervisor.follow is not served here");
        }
        if (!MINION_ID.matcher(minion).matches()) {
            throw new RunnerException("supervisor.follow names one minion by its id, got " + minion);
        }
        if (!Topics.isSubscribedBy(subscribedTopics.get(), minion)) {
            throw new RunnerException(minion + " is not connected");
        }
        int seconds = Math.max(0, Math.min(wait, MAX_FOLLOW_WAIT));
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("__kwarg__", true);
        kwargs.put("lines", lines);
        kwargs.put("wait", seconds);
        if (offset != null) {
            kwargs.put("offset", byteOffset(offset));
        }
        Gathered answer = jobs.run("supervisor.follow", List.of(program, kwargs), "root", "list", List.of(minion),
                Duration.ofSeconds(seconds + Math.max(1, Math.min(defaultTimeout.getAsInt(), 60))));
        if (!answer.returns().containsKey(minion)) {
            throw new RunnerException(minion + " did not answer");
        }
        Object ret = answer.returns().get(minion);
        if (!(ret instanceof Map<?, ?>)) {
            throw new RunnerException(String.valueOf(ret)); // the minion's error: no such process, ...
        }
        return ret;
    }

    /** A byte offset of a log: a whole number >= 0 (logs pass 2 GiB: a long), or its decimal text. */
    private static long byteOffset(Object offset) {
        try {
            long value = offset instanceof Number n && n.doubleValue() == n.longValue() ? n.longValue()
                    : Long.parseLong(String.valueOf(offset).trim());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new RunnerException("offset: expected a byte offset >= 0, got " + offset);
    }

    Map<String, Map<String, Object>> status(Object tgt, String tgtType, String program, String state) {
        Set<String> minions = "*".equals(tgt) && "glob".equals(tgtType) ? null
                : new LinkedHashSet<>(targets.resolve(tgtType, tgt).expected());
        Map<String, Map<String, Object>> status = fleet.status(minions, program, state);
        Set<String> topics = subscribedTopics.get();
        status.forEach((minion, processes) -> {
            boolean connected = Topics.isSubscribedBy(topics, minion);
            processes.values().forEach(row -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> fields = (Map<String, Object>) row;
                fields.put("minion_connected", connected);
            });
        });
        return status;
    }

    static String table(Map<String, Map<String, Object>> status) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-20s %-24s %-9s %-40s %s%n",
                "MINION", "PROCESS", "STATE", "DESCRIPTION", "REPORTED"));
        status.forEach((minion, processes) -> processes.forEach((name, value) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) value;
            String group = String.valueOf(row.get("group"));
            String note = !Boolean.FALSE.equals(row.get("minion_connected")) ? ""
                    : row.get("via") != null ? " (via " + row.get("via") + ")" : " (minion not connected: stale)";
            out.append(String.format(Locale.ROOT, "%-20s %-24s %-9s %-40s %ss ago%s%n", minion,
                    group.equals(name) ? name : group + ":" + name, row.get("state"), row.get("description"),
                    row.get("reported_seconds_ago"), note));
        }));
        return out.toString().stripTrailing();
    }
}
