package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code cmd.run} state, through the {@code cmd} execution module ({@code cmd.run_all} runs the command,
 * {@code cmd.retcode} the {@code unless}/{@code onlyif} checks). {@code watch} runs it again (Salt's
 * {@code cmd.mod_watch}).
 */
public final class CmdStates {
    private static final List<String> RUN_ARGS = List.of("unless", "onlyif", "creates", "cwd", "env", "shell", "runas",
            "stateful", "output_loglevel", "timeout");

    private CmdStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("cmd.run", CmdStates::run).addWatch("cmd", CmdStates::run);
    }

    static StateResult run(StateCall call) {
        call.allowOnly("cmd.run", RUN_ARGS);
        if (call.flag("stateful", false)) {
            throw new StatesException("cmd.run: 'stateful' is not supported by jsalt yet");
        }
        String cwd = call.string("cwd");
        for (String check : call.strings("onlyif")) {
            if (retcode(call, check, cwd) != 0) {
                return StateResult.ok("onlyif condition is false");
            }
        }
        // Salt: the state runs as soon as one unless command fails; it is skipped only when all succeed
        List<String> unless = call.strings("unless");
        if (!unless.isEmpty() && unless.stream().allMatch(check -> retcode(call, check, cwd) == 0)) {
            return StateResult.ok("unless condition is true");
        }
        List<String> creates = call.strings("creates");
        if (!creates.isEmpty() && creates.stream().allMatch(p -> Files.exists(Path.of(p)))) {
            // Salt's two wordings: one path, or a list of them
            return StateResult.ok(call.args().get("creates") instanceof List<?> ? "All files in creates exist"
                    : creates.get(0) + " exists");
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Command \"" + call.name() + "\" would have been executed");
        }
        Object out = call.salt().call("cmd.run_all", List.of(call.name()), options(call, cwd));
        if (!(out instanceof Map<?, ?> result)) {
            return StateResult.failed("cmd.run_all returned " + out);
        }
        Map<String, Object> changes = new LinkedHashMap<>();
        result.forEach((k, v) -> changes.put(String.valueOf(k), v));
        Object code = changes.get("retcode");
        boolean ok = code instanceof Number n && n.intValue() == 0;
        return new StateResult(ok, changes, "Command \"" + call.name() + "\" run");
    }

    private static int retcode(StateCall call, String command, String cwd) {
        Map<String, Object> kwargs = options(call, cwd);
        kwargs.put("ignore_retcode", true); // a failing check is an answer, not an error (Salt passes it too)
        Object code = call.salt().call("cmd.retcode", List.of(command), kwargs);
        if (!(code instanceof Number n)) {
            throw new StatesException("cmd.retcode returned " + code + " for '" + command + "'");
        }
        return n.intValue();
    }

    private static Map<String, Object> options(StateCall call, String cwd) {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("python_shell", true); // states run commands through the shell, as Salt's cmd.run state does
        if (cwd != null) {
            kwargs.put("cwd", cwd);
        }
        for (String key : List.of("env", "shell", "runas", "output_loglevel", "timeout")) {
            if (call.args().containsKey(key)) {
                kwargs.put(key, call.args().get(key));
            }
        }
        return kwargs;
    }
}
