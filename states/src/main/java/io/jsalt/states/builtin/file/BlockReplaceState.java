package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.PythonRegex;
import io.jsalt.modules.builtin.file.UnifiedDiff;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code file.blockreplace} (the state over its execution function, line for line): the lines between
 * {@code marker_start} and {@code marker_end} become {@code content} (or the rendered {@code source}/{@code sources});
 * a missing block can be appended, prepended, or put before or after the first line a regular expression finds.
 * Changes {@code {diff: ...}}, {@code Changes were made}, {@code No changes needed to be made}.
 */
public final class BlockReplaceState {
    static final List<String> ARGS = List.of("marker_start", "marker_end", "content", "source", "sources", "template",
            "defaults", "context", "append_if_not_found", "prepend_if_not_found", "backup", "show_changes",
            "append_newline", "insert_before_match", "insert_after_match");

    private BlockReplaceState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.blockreplace", ARGS);
        String name = call.name();
        Path path = Path.of(name);
        if (call.args().get("source") != null && call.args().get("sources") != null) {
            return StateResult.failed("source and sources are mutually exclusive");
        }
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        if (!Files.exists(path)) {
            return StateResult.failed(name + ": file not found");
        }
        Object changes;
        try {
            String content = call.args().get("content") == null ? "" : call.string("content");
            for (String text : AppendState.sourceTexts(call)) {
                content += text;
            }
            changes = edit(call, path, content);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        } catch (CommandExecutionException | IOException e) {
            return StateResult.failed("Encountered error managing block: " + e.getMessage() + ". See the log for details.");
        }
        if (Boolean.FALSE.equals(changes) || "".equals(changes)) {
            return StateResult.ok("No changes needed to be made");
        }
        Map<String, Object> diff = Map.of("diff", changes);
        return call.test() ? StateResult.wouldChange(diff, "Changes would be made")
                : StateResult.changed(diff, "Changes were made");
    }

    /** Salt's {@code file.blockreplace} execution function: the diff (show_changes) or whether the file changed. */
    private static Object edit(StateCall call, Path path, String content) throws IOException {
        String start = call.args().containsKey("marker_start") ? call.string("marker_start") : "#-- start managed zone --";
        String end = call.args().containsKey("marker_end") ? call.string("marker_end") : "#-- end managed zone --";
        boolean append = call.flag("append_if_not_found", false);
        boolean prepend = call.flag("prepend_if_not_found", false);
        String before = call.string("insert_before_match");
        String after = call.string("insert_after_match");
        int exclusive = (append ? 1 : 0) + (prepend ? 1 : 0) + (before != null && !before.isEmpty() ? 1 : 0)
                + (after != null && !after.isEmpty() ? 1 : 0);
        if (exclusive > 1) {
            throw new CommandExecutionException("Only one of append_if_not_found, prepend_if_not_found, "
                    + "insert_before_match, and insert_after_match is permitted");
        }
        Boolean appendNewline = call.args().get("append_newline") == null ? null : call.flag("append_newline", false);
        if (appendNewline == null && !content.endsWith("\n")) {
            appendNewline = true;
        }
        Block block = new Block(start, end, List.of(content.replace("\r\n", "\n").split("\n", -1)),
                Boolean.TRUE.equals(appendNewline));
        String text = Files.readString(path, StandardCharsets.UTF_8);
        List<String> orig = LineState.readlines(text);
        String linesep = orig.isEmpty() ? "\n" : orig.get(0).endsWith("\r\n") ? "\r\n" : "\n";
        List<String> updated = new ArrayList<>();
        boolean inBlock = false;
        boolean found = false;
        for (String line : orig) {
            boolean keep = true;
            if (line.contains(start)) {
                inBlock = true;
            } else if (inBlock) {
                keep = false;
                int at = line.indexOf(end);
                if (at >= 0) {
                    inBlock = false;
                    found = true;
                    block.addTo(updated, linesep, false, line.substring(at));
                }
            }
            if (keep) {
                updated.add(line);
            }
        }
        if (inBlock) {
            throw new CommandExecutionException("Unterminated marked block. End of file reached before marker_end.");
        }
        if (!found) {
            if (prepend) {
                List<String> lines = block.addTo(new ArrayList<>(), linesep, true, null);
                lines.addAll(updated);
                updated = lines;
            } else if (append) {
                if (!updated.isEmpty() && !updated.get(updated.size() - 1).endsWith(linesep)) {
                    updated.set(updated.size() - 1, updated.get(updated.size() - 1) + linesep);
                }
                block.addTo(updated, linesep, true, null);
            } else if (before != null || after != null) {
                java.util.regex.Pattern regex = PythonRegex.compile(before != null ? before : after, 0);
                int idx = -1;
                for (int i = 0; i < orig.size() && idx < 0; i++) {
                    if (regex.matcher(orig.get(i)).find()) {
                        idx = i;
                    }
                }
                if (idx < 0) {
                    throw new CommandExecutionException("Cannot edit marked block. Markers were not found in file.");
                }
                for (String line : block.addTo(new ArrayList<>(), linesep, true, null)) {
                    if (after != null) {
                        idx++;
                    }
                    updated.add(idx, line);
                    if (before != null) {
                        idx++;
                    }
                }
            } else {
                throw new CommandExecutionException("Cannot edit marked block. Markers were not found in file.");
            }
        }
        String newText = String.join("", updated);
        String diff = UnifiedDiff.of(text, newText);
        boolean changed = !diff.isEmpty();
        if (changed && !call.test()) {
            Object backup = call.args().containsKey("backup") ? call.args().get("backup") : ".bak";
            String suffix = String.valueOf(backup);
            if (!Boolean.FALSE.equals(backup) && !suffix.equalsIgnoreCase("false")) {
                FileWrites.copyPrivately(path, Path.of(path + suffix));
            }
            AtomicFileWriter.write(path.toRealPath(), newText.getBytes(StandardCharsets.UTF_8));
        }
        return call.flag("show_changes", true) ? diff : changed;
    }

    /** The block's lines as Salt's {@code _add_content} writes them. */
    private record Block(String start, String end, List<String> content, boolean appendNewline) {
        List<String> addTo(List<String> lines, String linesep, boolean withStart, String endLine) {
            String last = (endLine == null ? end : endLine).replaceAll("[\r\n]+$", "") + linesep;
            if (withStart) {
                lines.add(start + linesep);
            }
            for (int i = 0; i < content.size(); i++) {
                if (i < content.size() - 1) {
                    lines.add(content.get(i) + linesep);
                } else if (appendNewline) {
                    lines.add(content.get(i) + linesep);
                    lines.add(last);
                } else {
                    lines.add(content.get(i) + last);
                }
            }
            return lines;
        }
    }
}
