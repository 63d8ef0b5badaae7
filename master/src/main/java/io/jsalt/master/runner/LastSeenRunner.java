package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;

import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.session.LastSeen;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * jsalt's own {@code manage.last_seen}: when the master last heard from each minion ({@link LastSeen}), for
 * the console's minion list. Nothing is sent to the minions.
 */
public final class LastSeenRunner implements RunnerModule {
    private final LastSeen lastSeen;

    public LastSeenRunner(LastSeen lastSeen) {
        this.lastSeen = lastSeen;
    }

    @Override
    public List<RunnerFunction> functions() {
        return List.of(new RunnerFunction(RunnerSignature.of("manage.last_seen", optional("subset", Type.STRINGS, null)),
                "Return {minion: epoch seconds} of the last time each minion proved itself to this master (a job's "
                        + "return, its start, a supervisor report) since the master started; subset limits it to those ids.",
                a -> lastSeenOf(a.value("subset") == null ? null : Set.copyOf(a.strings("subset")))));
    }

    /** Every minion seen, or those of {@code subset} (null: all). */
    private Map<String, Double> lastSeenOf(Set<String> subset) {
        Map<String, Double> out = new LinkedHashMap<>();
        lastSeen.all().forEach((id, when) -> {
            if (subset == null || subset.contains(id)) {
                out.put(id, when);
            }
        });
        return out;
    }
}
