package io.jsalt.states.exec;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.TargetMatcher;
import java.util.Map;

/** The minion's real target matcher over fixed facts, as MinionModuleContext.targets runs it. */
final class MinionTargets {
    private MinionTargets() {
    }

    static TopFile.Targeting of(String id, Map<String, Object> grains, Map<String, Object> pillar) {
        return of(id, grains, pillar, Map.of());
    }

    static TopFile.Targeting of(String id, Map<String, Object> grains, Map<String, Object> pillar,
            Map<String, Object> nodegroups) {
        return (matcher, expression) -> {
            try {
                return TargetMatcher.of(matcher, expression, nodegroups).matches(new MinionFacts(id, grains, pillar));
            } catch (InvalidTargetException e) {
                throw new CommandExecutionException(e.getMessage());
            }
        };
    }
}
