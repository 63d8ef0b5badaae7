package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.PythonRegex;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Salt's {@code file.comment} and {@code file.uncomment} over its {@code file.comment_line}: the lines a Python
 * regular expression matches (from their start) get {@code char} in front, or lose it; a {@code .bak} copy is kept by
 * default; changes {@code {diff: ...}}, {@code Commented lines successfully}, {@code Pattern already commented}.
 */
public final class CommentStates {
    private static final int MULTILINE = 8;

    private CommentStates() {
    }

    public static StateResult comment(StateCall call) {
        call.allowOnly("file.comment", List.of("regex", "char", "backup", "ignore_missing"));
        String regex = call.string("regex");
        String chr = call.args().containsKey("char") ? call.string("char") : "#";
        Path path = Path.of(call.name());
        StateResult bad = check(call, path, regex, "file.comment");
        if (bad != null) {
            return bad;
        }
        String unanchored = regex.replaceFirst("^(\\(\\?[iLmsux]\\))?\\^?(.*?)\\$?$", "$2");
        String uncommented = "^(?!\\s*" + chr + ")\\s*" + unanchored;
        String commented = chr + unanchored;
        try {
            if (!search(path, uncommented)) {
                if (search(path, commented)) {
                    return StateResult.ok("Pattern already commented");
                }
                if (call.flag("ignore_missing", false)) {
                    return StateResult.ok("Pattern not found and ignore_missing set to True");
                }
                return StateResult.failed(unanchored + ": Pattern not found");
            }
            if (call.test()) {
                return StateResult.wouldChange(Map.of(call.name(), "updated"), "File " + call.name() + " is set to be updated");
            }
            Map<String, Object> changes = commentLine(call, path, regex, chr, true);
            boolean done = search(path, commented);
            return new StateResult(done, changes, done ? "Commented lines successfully" : "Expected commented lines not found");
        } catch (IOException e) {
            return StateResult.failed("Unable to edit " + path + ": " + e);
        } catch (CommandExecutionException e) {
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        }
    }

    public static StateResult uncomment(StateCall call) {
        call.allowOnly("file.uncomment", List.of("regex", "char", "backup"));
        String regex = call.string("regex");
        String chr = call.args().containsKey("char") ? call.string("char") : "#";
        Path path = Path.of(call.name());
        StateResult bad = check(call, path, regex, "file.uncomment");
        if (bad != null) {
            return bad;
        }
        String bare = regex.replaceFirst("^\\^+", "");
        try {
            if (!search(path, chr + "[ \t]*" + bare)) {
                if (search(path, "^[ \t]*" + bare)) {
                    return StateResult.ok("Pattern already uncommented");
                }
                return StateResult.failed(regex + ": Pattern not found");
            }
            if (call.test()) {
                return StateResult.wouldChange(Map.of(call.name(), "updated"), "File " + call.name() + " is set to be updated");
            }
            Map<String, Object> changes = commentLine(call, path, regex, chr, false);
            boolean done = search(path, "^[ \t]*" + bare);
            return new StateResult(done, changes, done ? "Uncommented lines successfully"
                    : "Expected uncommented lines not found");
        } catch (IOException e) {
            return StateResult.failed("Unable to edit " + path + ": " + e);
        } catch (CommandExecutionException e) {
            return StateResult.failed("An exception occurred in this state: " + e.getMessage());
        }
    }

    private static StateResult check(StateCall call, Path path, String regex, String fun) {
        if (regex == null) {
            return StateResult.failed(fun + "() missing 1 required positional argument: 'regex'");
        }
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + call.name() + " is not an absolute path");
        }
        if (!Files.exists(path)) {
            return StateResult.failed(call.name() + ": file not found");
        }
        return null;
    }

    /** Salt's {@code file.search} with multiline: the pattern anywhere in the file, {@code ^}/{@code $} per line. */
    private static boolean search(Path path, String pattern) throws IOException {
        return PythonRegex.compile(pattern, MULTILINE).matcher(Files.readString(path, StandardCharsets.UTF_8)).find();
    }

    /**
     * Salt's {@code file.comment_line}: each line the regular expression matches from its start is prefixed with
     * {@code char}, or (uncommenting) loses the leading {@code char}s; the old file is kept as {@code name.bak}.
     */
    private static Map<String, Object> commentLine(StateCall call, Path given, String regex, String chr, boolean comment)
            throws IOException {
        String inner = regex.replaceFirst("^\\^+", "").replaceFirst("\\$+$", "");
        String full = comment ? (regex.startsWith("^") ? "^" : "") + "(" + inner + ")" + (regex.endsWith("$") ? "$" : "")
                : "^" + chr + "\\s*(" + inner + ")" + (regex.endsWith("$") ? "$" : "");
        Pattern line = PythonRegex.compile(full, 0);
        Path path = given.toRealPath();
        String before = Files.readString(path, StandardCharsets.UTF_8);
        StringBuilder after = new StringBuilder();
        for (String l : LineState.readlines(before)) {
            if (line.matcher(l).lookingAt()) {
                after.append(comment ? chr + l : stripLeading(l, chr));
            } else {
                after.append(l);
            }
        }
        Map<String, Object> changes = new LinkedHashMap<>();
        if (after.toString().equals(before)) {
            return changes;
        }
        Object backup = call.args().containsKey("backup") ? call.args().get("backup") : ".bak";
        String suffix = String.valueOf(backup);
        // YAML's False may arrive as text: no backup then, as in Salt
        if (backup != null && !Boolean.FALSE.equals(backup) && !suffix.isEmpty() && !suffix.equalsIgnoreCase("false")
                && !suffix.equalsIgnoreCase("none")) {
            FileWrites.copyPrivately(path, Path.of(path + suffix));
        }
        AtomicFileWriter.write(path, after.toString().getBytes(StandardCharsets.UTF_8));
        changes.put("diff", FileDiff.of(before.getBytes(StandardCharsets.UTF_8), after.toString().getBytes(StandardCharsets.UTF_8)));
        return changes;
    }

    /** Python's {@code str.lstrip(chars)}: every leading character that is one of {@code chars}. */
    private static String stripLeading(String line, String chars) {
        int i = 0;
        while (i < line.length() && chars.indexOf(line.charAt(i)) >= 0) {
            i++;
        }
        return line.substring(i);
    }
}
