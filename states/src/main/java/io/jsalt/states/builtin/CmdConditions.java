package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the {@code cmd} states share: Salt's {@code onlyif}/{@code unless}/{@code creates} checks (state.py's
 * {@code _run_check}), the options passed down to the execution module, and the {@code success_*} rules of
 * cmdmod's {@code _run}, applied to the command's result.
 */
final class CmdConditions {
    private CmdConditions() {
    }

    /** The result of a state skipped by its checks, or empty when the command is to run. */
    static Optional<StateResult> skip(StateCall call) {
        String cwd = call.string("cwd");
        for (String check : call.strings("onlyif")) {
            if (retcode(call, check, cwd) != 0) {
                return Optional.of(StateResult.ok("onlyif condition is false"));
            }
        }
        // Salt: the state runs as soon as one unless command fails; it is skipped only when all succeed
        List<String> unless = call.strings("unless");
        if (!unless.isEmpty() && unless.stream().allMatch(check -> retcode(call, check, cwd) == 0)) {
            return Optional.of(StateResult.ok("unless condition is true"));
        }
        List<String> creates = call.strings("creates");
        if (!creates.isEmpty() && creates.stream().allMatch(p -> Files.exists(Path.of(p)))) {
            // Salt's two wordings: one path, or a list of them
            return Optional.of(StateResult.ok(call.args().get("creates") instanceof List<?>
                    ? "All files in creates exist" : creates.get(0) + " exists"));
        }
        return Optional.empty();
    }

    /** Salt's early refusals, before anything runs: a malformed {@code env}, a missing {@code cwd}. */
    static Optional<StateResult> invalid(StateCall call, boolean checkCwd) {
        Object env = call.args().get("env");
        if (env != null && !(env instanceof List<?> || env instanceof Map<?, ?>)) {
            return Optional.of(StateResult.failed("Invalidly-formatted 'env' parameter. See documentation."));
        }
        String cwd = call.string("cwd");
        if (checkCwd && cwd != null && !cwd.isEmpty() && !Files.isDirectory(Path.of(cwd))) {
            return Optional.of(StateResult.failed("Desired working directory \"" + cwd + "\" is not available"));
        }
        return Optional.empty();
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

    /** The execution module's keywords that the state passes down as they were given. */
    static Map<String, Object> options(StateCall call, String cwd) {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("python_shell", true); // states run commands through the shell, as Salt's cmd states do
        if (cwd != null) {
            kwargs.put("cwd", cwd);
        }
        for (String key : List.of("env", "shell", "runas", "output_loglevel", "timeout")) {
            if (call.args().get(key) != null) {
                kwargs.put(key, call.args().get(key));
            }
        }
        return kwargs;
    }

    /**
     * cmdmod's {@code _run}: a retcode listed in {@code success_retcodes}, or a {@code success_stdout} /
     * {@code success_stderr} text found in the output, counts as 0; {@code hide_output} blanks the output.
     */
    static Map<String, Object> judged(StateCall call, Map<String, Object> result) {
        Map<String, Object> ret = new LinkedHashMap<>(result);
        Object code = ret.get("retcode");
        List<String> codes = splitInput(call.args().get("success_retcodes"));
        for (String c : codes) {
            try {
                Integer.parseInt(c.strip());
            } catch (NumberFormatException e) {
                throw new StatesException("success_retcodes must be a list of integers");
            }
        }
        if (code instanceof Number n && codes.stream().anyMatch(c -> Integer.parseInt(c.strip()) == n.intValue())) {
            ret.put("retcode", 0);
        }
        String stdout = String.valueOf(ret.getOrDefault("stdout", ""));
        String stderr = String.valueOf(ret.getOrDefault("stderr", ""));
        if (splitInput(call.args().get("success_stdout")).stream().anyMatch(stdout::contains)
                || splitInput(call.args().get("success_stderr")).stream().anyMatch(stderr::contains)) {
            ret.put("retcode", 0);
        }
        if (call.flag("hide_output", false)) {
            ret.put("stdout", "");
            ret.put("stderr", "");
        }
        return ret;
    }

    /** Salt's {@code split_input}: a list as it is, a text split on commas. */
    private static List<String> splitInput(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(value).split(",")).stream().map(String::strip).toList();
    }

    static boolean succeeded(Map<String, Object> ret) {
        return ret.get("retcode") instanceof Number n && n.intValue() == 0;
    }
}
