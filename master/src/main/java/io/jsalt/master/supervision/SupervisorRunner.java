package io.jsalt.master.supervision;

import static io.jsalt.master.runner.Parameter.optional;

import io.jsalt.master.runner.Parameter;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import io.jsalt.master.runner.RunnerSignature;
import io.jsalt.master.targeting.TargetResolver;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fleet view of supervised processes, from the master's table of the minions' state events:
 * {@code supervisor.status} (data, for {@code --out json}) and {@code supervisor.table} (one line per process,
 * for people). Neither asks the minions anything: it shows what they last reported, and how long ago.
 */
public final class SupervisorRunner implements RunnerModule {
    private final FleetProcesses fleet;
    private final TargetResolver targets;

    public SupervisorRunner(FleetProcesses fleet, TargetResolver targets) {
        this.fleet = fleet;
        this.targets = targets;
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
                        a -> table(status(a.value("tgt"), a.string("tgt_type"), a.string("program"), a.string("state")))));
    }

    Map<String, Map<String, Object>> status(Object tgt, String tgtType, String program, String state) {
        Set<String> minions = "*".equals(tgt) && "glob".equals(tgtType) ? null
                : new LinkedHashSet<>(targets.resolve(tgtType, tgt).expected());
        return fleet.status(minions, program, state);
    }

    static String table(Map<String, Map<String, Object>> status) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-20s %-24s %-9s %-40s %s%n",
                "MINION", "PROCESS", "STATE", "DESCRIPTION", "REPORTED"));
        status.forEach((minion, processes) -> processes.forEach((name, value) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) value;
            String group = String.valueOf(row.get("group"));
            out.append(String.format(Locale.ROOT, "%-20s %-24s %-9s %-40s %ss ago%n", minion,
                    group.equals(name) ? name : group + ":" + name, row.get("state"), row.get("description"),
                    row.get("reported_seconds_ago")));
        }));
        return out.toString().stripTrailing();
    }
}
