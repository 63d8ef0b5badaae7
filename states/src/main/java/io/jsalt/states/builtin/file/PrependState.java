package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.UnifiedDiff;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Salt's {@code file.prepend}: the texts not yet in the file (found as {@link AppendState} finds them) put at its top,
 * line by line; with {@code header: True}, the texts are the file's first lines whatever is further down.
 * {@code Prepended N lines}, {@code File x is in correct state}; changes {@code {diff: ...}}.
 */
public final class PrependState {
    static final List<String> ARGS = List.of("text", "makedirs", "source", "sources", "template", "defaults", "context",
            "header");

    private PrependState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.prepend", ARGS);
        String name = call.name();
        Path path = Path.of(name);
        if (call.args().get("source") != null && call.args().get("sources") != null) {
            return StateResult.failed("source and sources are mutually exclusive");
        }
        try {
            StateResult early = AppendState.ensureFile(call, path);
            if (early != null) {
                return early;
            }
            List<String> texts = AppendState.texts(call);
            String before = Files.readString(path, StandardCharsets.UTF_8);
            boolean header = call.flag("header", false);
            List<String> preface = new ArrayList<>();
            for (String chunk : texts) {
                if (!header && Pattern.compile(AppendState.whitespaceSplitRegex(chunk), Pattern.MULTILINE)
                        .matcher(before).find()) {
                    continue;
                }
                preface.addAll(AppendState.lines(chunk));
            }
            StringBuilder top = new StringBuilder();
            preface.forEach(line -> top.append(line).append('\n'));
            Map<String, Object> changes = new LinkedHashMap<>();
            if (call.test()) {
                String would = top + before;
                if (would.equals(before)) {
                    return StateResult.ok("File " + name + " is in correct state");
                }
                changes.put("diff", FileDiff.of(before.getBytes(StandardCharsets.UTF_8), would.getBytes(StandardCharsets.UTF_8)));
                return StateResult.wouldChange(changes, "File " + name + " is set to be updated");
            }
            int count = preface.size();
            if (header && firstLines(before, preface.size()).equals(preface)) {
                count = 0; // the header is there already
            } else if (count > 0) {
                AtomicFileWriter.write(path.toRealPath(), (top + before).getBytes(StandardCharsets.UTF_8));
            }
            String after = Files.readString(path, StandardCharsets.UTF_8);
            if (!after.equals(before)) {
                changes.put("diff", UnifiedDiff.of(before, after));
            }
            return StateResult.changed(changes, count > 0 ? "Prepended " + count + " lines"
                    : "File " + name + " is in correct state");
        } catch (StatesException | CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        } catch (IOException e) {
            return StateResult.failed("Unable to prepend to " + name + ": " + e);
        }
    }

    /** The first {@code n} lines of the text, without their endings (Salt's header check). */
    private static List<String> firstLines(String text, int n) {
        List<String> lines = new ArrayList<>();
        for (String line : LineState.readlines(text).subList(0, Math.min(n, LineState.readlines(text).size()))) {
            lines.addAll(AppendState.lines(line));
        }
        return lines;
    }
}
