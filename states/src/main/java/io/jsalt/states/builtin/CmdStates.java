package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Salt's {@code cmd} states: {@code cmd.run} through the {@code cmd} execution module ({@code cmd.run_all} runs the
 * command, {@code cmd.retcode} the {@code unless}/{@code onlyif} checks), {@code cmd.script} ({@link CmdScriptState}),
 * and {@code cmd.wait}/{@code cmd.wait_script}, which do nothing until a {@code watch} fires. {@code watch} runs the
 * command (Salt's {@code cmd.mod_watch}: {@code run} for run/wait/watch, {@code script} for script/wait_script).
 */
public final class CmdStates {
    static final List<String> COMMON_ARGS = List.of("unless", "onlyif", "creates", "cwd", "env", "shell", "runas",
            "stateful", "output_loglevel", "timeout", "success_retcodes", "success_stdout", "success_stderr",
            "hide_output");

    private CmdStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("cmd.run", CmdStates::run)
                .add("cmd.wait", CmdStates::waitForWatch)
                .add("cmd.watch", CmdStates::waitForWatch) // Salt's alias of cmd.wait
                .add("cmd.script", CmdScriptState::script)
                .add("cmd.wait_script", CmdStates::waitForWatch)
                .addWatch("cmd", CmdStates::run)
                .addWatch("cmd.script", CmdScriptState::script)
                .addWatch("cmd.wait_script", CmdScriptState::script);
    }

    /** Salt's {@code cmd.wait}: nothing (its arguments are ignored on purpose), unless a watched state changed. */
    static StateResult waitForWatch(StateCall call) {
        return CmdConditions.skip(call).orElse(StateResult.ok(""));
    }

    static StateResult run(StateCall call) {
        call.allowOnly("cmd.run", COMMON_ARGS);
        Optional<StateResult> skipped = CmdConditions.skip(call);
        if (skipped.isPresent()) {
            return skipped.get();
        }
        String testName = testName(call);
        boolean stateful = testName != null || call.flag("stateful", false);
        String name = call.test() && testName != null ? testName : call.name();
        Optional<StateResult> invalid = CmdConditions.invalid(call, false);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        if (call.test() && testName == null) {
            StateResult would = StateResult.wouldChange(Map.of("cmd", name),
                    "Command \"" + name + "\" would have been executed");
            return stateful ? StatefulOutput.reinterpret(would) : would;
        }
        invalid = CmdConditions.invalid(call, true);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        String cwd = call.string("cwd");
        Object out;
        try {
            out = call.salt().call("cmd.run_all", List.of(name), CmdConditions.options(call, cwd));
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        if (!(out instanceof Map<?, ?> result)) {
            return StateResult.failed("cmd.run_all returned " + out);
        }
        Map<String, Object> changes = CmdConditions.judged(call, stringKeys(result));
        StateResult ran = new StateResult(CmdConditions.succeeded(changes), changes, "Command \"" + name + "\" run");
        return finish(call, ran, stateful);
    }

    /** The stateful reading of the output, and Salt's {@code result: None} for a test run that changed something. */
    static StateResult finish(StateCall call, StateResult ran, boolean stateful) {
        boolean ok = Boolean.TRUE.equals(ran.result());
        StateResult r = stateful ? StatefulOutput.reinterpret(ran) : ran;
        if (call.test() && ok && !r.changes().isEmpty()) {
            return new StateResult(null, r.changes(), r.comment());
        }
        return r;
    }

    /** Salt's {@code stateful: [{test_name: cmd}]}: the command a test run really runs to learn what would change. */
    static String testName(StateCall call) {
        if (call.args().get("stateful") instanceof List<?> list && !list.isEmpty()
                && list.get(0) instanceof Map<?, ?> first && first.get("test_name") != null) {
            return String.valueOf(first.get("test_name"));
        }
        return null;
    }

    static Map<String, Object> stringKeys(Map<?, ?> map) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
