package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.PythonRegex;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Salt's {@code file._set_line} (salt/modules/file.py), line for line: where {@code file.line} puts, replaces or
 * deletes {@code content} among a file's lines (each with its line ending, the last one possibly an empty
 * sentinel). {@code match}, {@code before} and {@code after} are Python regular expressions searched in each line
 * (with DOTALL), or plain text contained in it.
 */
final class LineEdit {
    private static final int DOTALL = 16;
    private static final Pattern EOL = Pattern.compile("((?<!\r)\n|\r(?!\n)|\r\n)$");

    private LineEdit() {
    }

    static List<String> apply(List<String> input, String content, String match, String mode, String location,
            String before, String after, boolean indent) {
        List<String> lines = new ArrayList<>(input);
        if (match == null && before == null && after == null) {
            match = content;
        }
        List<String> afterLines = matching(lines, after);
        List<String> beforeLines = matching(lines, before);
        List<String> matchLines = matching(lines, match);
        if (lines.isEmpty() && (mode.equals("delete") || mode.equals("replace"))) {
            return lines;
        }
        if (mode.equals("delete") && notEmpty(matchLines)) {
            String first = matchLines.get(0);
            lines.removeIf(line -> line.equals(first));
        } else if (mode.equals("replace") && notEmpty(matchLines)) {
            int idx = lines.indexOf(matchLines.get(0));
            String original = lines.remove(idx);
            lines.add(idx, indent(original, content, indent));
        } else if (mode.equals("insert")) {
            insert(lines, content, location, beforeLines, afterLines, indent);
        } else if (mode.equals("ensure")) {
            ensure(lines, content, beforeLines, afterLines, indent);
        }
        return lines;
    }

    private static void insert(List<String> lines, String content, String location, List<String> before,
            List<String> after, boolean indent) {
        if (before == null && after == null && location == null) {
            throw new CommandExecutionException("On insert either \"location\" or \"before/after\" conditions are required.");
        }
        if (location != null && !location.isEmpty()) {
            if (location.equals("end")) {
                lines.add(lines.isEmpty() ? content : indent(lines.get(lines.size() - 1), content, indent));
            } else if (location.equals("start")) {
                if (lines.isEmpty()) {
                    lines.add(content + "\n");
                } else {
                    lines.add(0, eol(lines.get(0), content));
                }
            }
            return;
        }
        if (notEmpty(before) && notEmpty(after)) {
            occurrence(before, "before");
            occurrence(after, "after");
            int last = lines.indexOf(before.get(0));
            lines.add(last, indent(lines.get(last), content, indent));
        } else if (notEmpty(after)) {
            occurrence(after, "after");
            int idx = lines.indexOf(after.get(0));
            String next = idx + 1 >= lines.size() ? null : lines.get(idx + 1);
            if (next == null || !stripEol(next).equals(stripEol(content))) {
                lines.add(idx + 1, indent(lines.get(idx), content, indent));
            }
        } else if (notEmpty(before)) {
            occurrence(before, "before");
            int idx = lines.indexOf(before.get(0));
            String prev = lines.get(Math.floorMod(idx - 1, lines.size())); // Python's lines[-1] for the first line
            if (!stripEol(prev).equals(stripEol(content))) {
                lines.add(idx, indent(lines.get(idx), content, indent));
            }
        } else {
            throw new CommandExecutionException("Neither before or after was found in file");
        }
    }

    private static void ensure(List<String> lines, String content, List<String> before, List<String> after,
            boolean indent) {
        if (notEmpty(before) && notEmpty(after)) {
            occurrence(after, "after");
            occurrence(before, "before");
            int afterIndex = lines.indexOf(after.get(0));
            int beforeIndex = lines.indexOf(before.get(0));
            boolean alreadyThere = lines.stream().anyMatch(line -> line.stripLeading().equals(content));
            if (!alreadyThere) {
                if (afterIndex + 1 == beforeIndex) {
                    lines.add(afterIndex + 1, indent(lines.get(afterIndex), content, indent));
                } else if (afterIndex + 2 == beforeIndex) {
                    lines.set(afterIndex + 1, indent(lines.get(afterIndex), content, indent));
                } else {
                    throw new CommandExecutionException("Found more than one line between boundaries \"before\" and "
                            + "\"after\".");
                }
            }
        } else if (notEmpty(before)) {
            occurrence(before, "before");
            int idx = lines.indexOf(before.get(0));
            if (idx == 0 || !stripEol(lines.get(idx - 1)).equals(stripEol(content))) {
                lines.add(idx, indent(lines.get(Math.floorMod(idx - 1, lines.size())), content, indent));
            }
        } else if (notEmpty(after)) {
            occurrence(after, "after");
            int idx = lines.indexOf(after.get(0));
            boolean last = idx + 1 >= lines.size();
            if (last || !stripEol(lines.get(idx + 1)).equals(stripEol(content))) {
                lines.add(idx + 1, indent(lines.get(idx), content, indent));
            }
        } else {
            throw new CommandExecutionException("Wrong conditions? Unable to ensure line without knowing where to put "
                    + "it before and/or after.");
        }
    }

    /** Salt's {@code _regex_to_static}: the lines a pattern finds (or that contain it as text); null for no pattern. */
    static List<String> matching(List<String> lines, String regex) {
        if (lines.isEmpty() || regex == null || regex.isEmpty()) {
            return null;
        }
        Pattern compiled = PythonRegex.compile(regex, DOTALL);
        List<String> found = new ArrayList<>();
        for (String line : lines) {
            if (compiled.matcher(line).find() || line.contains(regex)) {
                found.add(line);
            }
        }
        return found;
    }

    /** Salt's {@code _assert_occurrence} with one expected occurrence. */
    private static void occurrence(List<String> probe, String target) {
        if (probe.size() != 1) {
            String msg = probe.size() > 1 ? "more than" : "less than";
            throw new CommandExecutionException("Found " + msg + " expected occurrences in \"" + target + "\" expression");
        }
    }

    private static boolean notEmpty(List<String> lines) {
        return lines != null && !lines.isEmpty();
    }

    /** Salt's {@code _set_line_indent}: the content with the source line's leading blanks. */
    static String indent(String src, String line, boolean indent) {
        if (!indent) {
            return line;
        }
        int i = 0;
        while (i < src.length() && (src.charAt(i) == ' ' || src.charAt(i) == '\t')) {
            i++;
        }
        return src.substring(0, i) + line.stripLeading();
    }

    /** Salt's {@code _set_line_eol}: the line without trailing blanks, ended as the source line is. */
    static String eol(String src, String line) {
        String ending = eolOf(src);
        return line.stripTrailing() + (ending.isEmpty() ? "\n" : ending);
    }

    static String eolOf(String line) {
        Matcher m = EOL.matcher(line);
        return m.find() ? m.group() : "";
    }

    private static String stripEol(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
            end--;
        }
        return s.substring(0, end);
    }
}
