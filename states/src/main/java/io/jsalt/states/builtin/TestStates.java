package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.List;
import java.util.Map;

/** Salt's {@code test} states: results on demand, for trying requisites and outputters. */
public final class TestStates {
    private static final Map<String, Object> PRETEND = Map.of("testing",
            Map.of("old", "Unchanged", "new", "Something pretended to change"));

    private TestStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("test.nop", TestStates::nop)
                .add("test.succeed_without_changes", TestStates::nop)
                .add("test.succeed_with_changes", TestStates::succeedWithChanges)
                .add("test.fail_without_changes", TestStates::failWithoutChanges)
                .add("test.configurable_test_state", TestStates::configurable);
    }

    static StateResult nop(StateCall call) {
        call.allowOnly("test.nop", List.of());
        return StateResult.ok("Success!");
    }

    static StateResult succeedWithChanges(StateCall call) {
        call.allowOnly("test.succeed_with_changes", List.of());
        if (call.test()) {
            return StateResult.wouldChange(PRETEND, "If we weren't testing, this would be successful with changes");
        }
        return StateResult.changed(PRETEND, "Success!");
    }

    static StateResult failWithoutChanges(StateCall call) {
        call.allowOnly("test.fail_without_changes", List.of());
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "If we weren't testing, this would be a failure!");
        }
        return StateResult.failed("Failure!");
    }

    /** {@code changes} and {@code result} are booleans here; Salt's "Random" is not supported. */
    static StateResult configurable(StateCall call) {
        call.allowOnly("test.configurable_test_state", List.of("changes", "result", "comment", "warnings"));
        for (String key : List.of("changes", "result")) {
            if (call.args().get(key) instanceof String s && s.equalsIgnoreCase("random")) {
                throw new StatesException("'" + key + ": Random' is not supported by jsalt");
            }
        }
        boolean changes = call.flag("changes", true);
        boolean result = call.flag("result", true);
        String comment = call.args().containsKey("comment") ? call.string("comment") : "";
        Map<String, Object> changed = changes ? PRETEND : Map.of();
        if (call.test()) {
            return new StateResult(changes ? null : true, changed, comment);
        }
        return new StateResult(result, changed, comment);
    }
}
