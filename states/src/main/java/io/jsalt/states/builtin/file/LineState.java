package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.UnifiedDiff;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Salt's {@code file.line} state over its {@code file.line} execution function: one line of a file inserted,
 * replaced, deleted or ensured ({@link LineEdit}); changes {@code {diff: <unified diff>}}, {@code Changes were made},
 * {@code No changes needed to be made}; test mode: {@code Changes would be made}.
 */
public final class LineState {
    static final List<String> ARGS = List.of("content", "match", "mode", "location", "before", "after", "show_changes",
            "backup", "quiet", "indent", "create", "user", "group", "file_mode");

    private LineState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.line", ARGS);
        String name = call.name();
        // Salt first runs file.managed with replace=False: create (when asked), owner, group and file_mode
        Map<String, Object> managed = new LinkedHashMap<>();
        managed.put("create", call.flag("create", false));
        putIfSet(managed, "user", call.args().get("user"));
        putIfSet(managed, "group", call.args().get("group"));
        putIfSet(managed, "mode", call.args().get("file_mode"));
        managed.put("replace", false);
        ManagedState.run(call.with(name, managed));
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        if (!Files.exists(path)) {
            return StateResult.failed(name + ": file not found");
        }
        String mode = call.string("mode");
        if (mode == null) {
            return StateResult.failed("Mode was not defined. How to process the file?");
        }
        mode = mode.toLowerCase(Locale.ROOT);
        String content = call.string("content");
        if (!mode.equals("delete") && content == null) {
            return StateResult.failed("Content can only be empty if mode is ['delete']");
        }
        try {
            Object changes = edit(call, path, content, mode);
            if (Boolean.FALSE.equals(changes) || "".equals(changes)) {
                return StateResult.ok("No changes needed to be made");
            }
            Map<String, Object> diff = Map.of("diff", changes);
            return call.test() ? StateResult.wouldChange(diff, "Changes would be made")
                    : StateResult.changed(diff, "Changes were made");
        } catch (CommandExecutionException e) {
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        } catch (IOException e) {
            return StateResult.failed("Unable to edit " + name + ": " + e);
        }
    }

    /** Salt's {@code file.line} execution function: the diff (show_changes) or whether the file changed. */
    private static Object edit(StateCall call, Path given, String content, String mode) throws IOException {
        Path path = given.toRealPath();
        if (!Files.isRegularFile(path)) {
            if (call.flag("quiet", false)) {
                return false;
            }
            throw new CommandExecutionException("File \"" + path + "\" does not exists or is not a file.");
        }
        if (!List.of("insert", "ensure", "delete", "replace").contains(mode)) {
            throw new CommandExecutionException("Unknown mode: \"" + mode + "\"");
        }
        String text = Files.readString(path, StandardCharsets.UTF_8);
        List<String> body = readlines(text);
        if (!body.isEmpty() && !LineEdit.eolOf(body.get(body.size() - 1)).isEmpty()) {
            body.add("");
        }
        if (text.isEmpty() && (mode.equals("delete") || mode.equals("replace"))) {
            body = new ArrayList<>();
        }
        body = LineEdit.apply(body, content, call.string("match"), mode, call.string("location"), call.string("before"),
                call.string("after"), call.flag("indent", true));
        if (!body.isEmpty()) {
            for (int idx = 0; idx < body.size(); idx++) {
                if (LineEdit.eolOf(body.get(idx)).isEmpty() && idx + 1 < body.size()) {
                    int prev = idx == 0 ? 1 : idx - 1; // Python's 'idx and idx - 1 or 1'
                    body.set(idx, LineEdit.eol(body.get(prev), body.get(idx)));
                }
            }
            if (body.get(body.size() - 1).isEmpty()) {
                body.remove(body.size() - 1);
            }
        }
        String after = String.join("", body);
        boolean changed = !after.equals(text);
        if (!changed) {
            return false;
        }
        if (call.flag("backup", false) && !call.test()) {
            Path backup = Path.of(path + "." + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HH-mm-ss")));
            FileWrites.copyPrivately(path, backup);
        }
        String diff = call.flag("show_changes", true) ? UnifiedDiff.of(text, after) : null;
        if (!call.test()) {
            AtomicFileWriter.write(path, after.getBytes(StandardCharsets.UTF_8));
        }
        return diff != null && !diff.isEmpty() ? diff : true;
    }

    /** Python's {@code readlines()}: each line with its new line. */
    static List<String> readlines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    private static void putIfSet(Map<String, Object> args, String key, Object value) {
        if (value != null) {
            args.put(key, value);
        }
    }
}
