package io.jsalt.states.builtin.file;

import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code file.replace} state over the {@code file.replace} execution function (Python regular expressions,
 * {@code \1} references, Python's flags; {@code dry_run} in test mode): changes {@code {diff: <unified diff>}},
 * {@code Changes were made}, {@code No changes needed to be made}; test mode: {@code Changes would have been made}.
 */
public final class ReplaceState {
    static final List<String> ARGS = List.of("pattern", "repl", "count", "flags", "bufsize", "append_if_not_found",
            "prepend_if_not_found", "not_found_content", "backup", "show_changes", "ignore_if_missing",
            "backslash_literal");

    private ReplaceState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.replace", ARGS);
        String name = call.name();
        for (String required : List.of("pattern", "repl")) {
            if (!call.args().containsKey(required)) {
                return StateResult.failed("Missing parameter " + required + " for state file.replace");
            }
        }
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        if (!Files.exists(path)) {
            return call.flag("ignore_if_missing", false) ? StateResult.ok("No changes needed to be made")
                    : StateResult.failed(name + ": file not found");
        }
        Map<String, Object> kwargs = new LinkedHashMap<>();
        for (String key : ARGS.subList(2, ARGS.size())) {
            if (call.args().containsKey(key)) {
                kwargs.put(key, call.args().get(key));
            }
        }
        kwargs.put("dry_run", call.test());
        kwargs.put("follow_symlinks", true); // Salt edits the file a link leads to
        Object changes;
        try {
            changes = call.salt().call("file.replace", List.of(name, String.valueOf(call.args().get("pattern")),
                    String.valueOf(call.args().get("repl"))), kwargs);
        } catch (RuntimeException e) {
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        }
        if (changes == null || Boolean.FALSE.equals(changes) || "".equals(changes)) {
            return StateResult.ok("No changes needed to be made");
        }
        Map<String, Object> diff = Map.of("diff", changes);
        return call.test() ? StateResult.wouldChange(diff, "Changes would have been made")
                : StateResult.changed(diff, "Changes were made");
    }
}
