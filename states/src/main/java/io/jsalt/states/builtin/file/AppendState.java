package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.PythonRegex;
import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Salt's {@code file.append}: each text (or rendered {@code source}/{@code sources} template) not yet in the file is
 * appended, line by line. A text is found when the file has it with any white space between its words (Salt's
 * {@code build_whitespace_split_regex}), or, with {@code ignore_whitespace: False}, when it matches as a regular
 * expression. Changes {@code {diff: ...}} in Salt's form, {@code Appended N lines}, {@code File x is in correct state}.
 */
public final class AppendState {
    static final List<String> ARGS = List.of("text", "makedirs", "source", "sources", "template", "defaults", "context",
            "ignore_whitespace");

    private AppendState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.append", ARGS);
        String name = call.name();
        Path path = Path.of(name);
        if (call.args().get("source") != null && call.args().get("sources") != null) {
            return StateResult.failed("source and sources are mutually exclusive");
        }
        String comment;
        Boolean result;
        try {
            StateResult early = ensureFile(call, path);
            if (early != null) {
                return early;
            }
            List<String> texts = texts(call);
            byte[] before = Files.readAllBytes(path);
            List<String> slines = lines(new String(before, StandardCharsets.UTF_8));
            String current = new String(before, StandardCharsets.UTF_8);
            List<String> append = new ArrayList<>();
            boolean ignoreWhitespace = call.flag("ignore_whitespace", true);
            for (String chunk : texts) {
                Pattern found = ignoreWhitespace ? Pattern.compile(whitespaceSplitRegex(chunk), Pattern.MULTILINE)
                        : PythonRegex.compile(chunk, 8);
                if (found.matcher(current).find()) {
                    continue;
                }
                append.addAll(lines(chunk));
            }
            List<String> nlines = new ArrayList<>(slines);
            nlines.addAll(append);
            Map<String, Object> changes = new LinkedHashMap<>();
            if (call.test()) {
                if (slines.equals(nlines)) {
                    return StateResult.ok("File " + name + " is in correct state");
                }
                changes.put("diff", FileDiff.isText(before) ? FileDiff.ofLines(slines, nlines) : "Replace binary file");
                return StateResult.wouldChange(changes, "File " + name + " is set to be updated");
            }
            if (append.isEmpty()) {
                comment = "File " + name + " is in correct state";
            } else {
                StringBuilder text = new StringBuilder();
                if (before.length > 0 && before[before.length - 1] != '\n') {
                    text.append('\n'); // Salt's file.append ends the last line first
                }
                append.forEach(line -> text.append(line).append('\n'));
                Files.write(path, text.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
                comment = "Appended " + append.size() + " lines";
            }
            byte[] after = Files.readAllBytes(path);
            List<String> written = lines(new String(after, StandardCharsets.UTF_8));
            if (!slines.equals(written)) {
                changes.put("diff", FileDiff.isText(after) ? FileDiff.ofLines(slines, written) : "Replace binary file");
            }
            result = true;
            return new StateResult(result, changes, comment);
        } catch (StatesException | CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        } catch (IOException e) {
            return StateResult.failed("Unable to append to " + name + ": " + e);
        }
    }

    /**
     * What file.append and file.prepend do first: the folder with {@code makedirs}, and a missing file touched (in
     * test mode, Salt returns file.touch's prediction as the state's).
     *
     * @return the state's result when it ends here, null to go on
     */
    static StateResult ensureFile(StateCall call, Path path) throws IOException {
        if (call.flag("makedirs", false) && !call.test() && path.getParent() != null
                && !Files.isDirectory(path.getParent())) {
            FileWrites.makeDirs(path.getParent(), Perms.NONE);
        }
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + path + " is not an absolute path");
        }
        if (!Files.exists(path)) {
            if (call.test()) {
                return touchPredicted(path, call.flag("makedirs", false));
            }
            if (Files.isDirectory(path.getParent())) {
                Files.write(path, new byte[0], StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            if (!Files.exists(path)) {
                return StateResult.failed(path + ": file not found");
            }
        }
        return null;
    }

    /** Salt's file.touch in test mode, which file.append returns as it is for a missing file. */
    private static StateResult touchPredicted(Path path, boolean makedirs) {
        if (!makedirs && !Files.isDirectory(path.getParent())) {
            return StateResult.failed("Directory not present to touch file " + path);
        }
        return StateResult.wouldChange(Map.of("new", path.toString()), "File " + path + " is set to be created");
    }

    /** The texts to append: {@code text} (a string or a list), or the rendered {@code source}/{@code sources}. */
    static List<String> texts(StateCall call) {
        List<String> rendered = sourceTexts(call);
        if (!rendered.isEmpty()) {
            return rendered;
        }
        List<String> texts = new ArrayList<>();
        Object text = call.args().get("text");
        if (text == null) {
            throw new StatesException("No text found to append. Nothing appended");
        }
        if (text instanceof List<?> list) {
            list.forEach(item -> texts.add(String.valueOf(item)));
        } else {
            texts.add(String.valueOf(text));
        }
        return texts;
    }

    /**
     * Salt's {@code _get_template_texts}: each of {@code source}/{@code sources} rendered with {@code template} (jinja
     * by default), {@code defaults} and {@code context}; empty when there are none.
     */
    static List<String> sourceTexts(StateCall call) {
        List<Object> sources = new ArrayList<>();
        if (call.args().get("source") != null) {
            sources.add(call.args().get("source"));
        } else if (call.args().get("sources") instanceof List<?> list) {
            sources.addAll(list);
        }
        List<String> texts = new ArrayList<>();
        if (!sources.isEmpty()) {
            String template = call.args().containsKey("template") ? call.string("template") : "jinja";
            for (Object source : sources) {
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("template", template);
                args.put("defaults", call.args().get("defaults"));
                args.put("context", call.args().get("context"));
                ManagedState.Wanted wanted;
                try {
                    wanted = ManagedState.wanted(call.with(call.name(), args), source, null);
                } catch (StatesException e) {
                    throw new StatesException("Failed to load template file " + source);
                }
                texts.add(new String(wanted.bytes(), StandardCharsets.UTF_8));
            }
        }
        return texts;
    }

    /** Python's {@code str.splitlines()}. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        if (text.isEmpty()) {
            return lines;
        }
        for (String line : text.split("\r\n|\r|\n", -1)) {
            lines.add(line);
        }
        if (text.endsWith("\n") || text.endsWith("\r")) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /**
     * Salt's {@code build_whitespace_split_regex}: each line's words (shlex's, quotes kept) in order, with any white
     * space around and between them, anchored to a whole line.
     */
    static String whitespaceSplitRegex(String text) {
        StringBuilder regex = new StringBuilder();
        for (String line : lines(text)) {
            List<String> parts = new ArrayList<>();
            for (String word : words(line)) {
                parts.add(Pattern.quote(word));
            }
            regex.append("(?:[\\s]+)?").append(String.join("(?:[\\s]+)?", parts)).append("(?:[\\s]+)?");
        }
        return "^" + regex + "$";
    }

    /** shlex with whitespace_split and Salt's choice of quotes (none when a line has both kinds). */
    private static List<String> words(String line) {
        String quotes = line.contains("'\"") ? "" : line.contains("'") ? "\"" : line.contains("\"") ? "'" : "'\"";
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char open = 0;
        for (char c : line.toCharArray()) {
            if (open != 0) {
                word.append(c);
                if (c == open) {
                    open = 0;
                }
            } else if (Character.isWhitespace(c)) {
                if (word.length() > 0) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                if (quotes.indexOf(c) >= 0) {
                    open = c;
                }
                word.append(c);
            }
        }
        if (open != 0) {
            throw new StatesException("No closing quotation");
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words;
    }
}
