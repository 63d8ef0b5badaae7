package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The runlevels an init script's LSB header asks for ({@code # Default-Start: 2 3 4 5}, {@code # Default-Stop: 0 1
 * 6}), read as update-rc.d reads them. Only real runlevels (0-6, S) are kept: a header is file content, and a word
 * such as {@code ../x} must never become part of a path.
 */
public record InitScriptHeader(List<String> defaultStart, List<String> defaultStop) {

    private static final Pattern RUNLEVEL = Pattern.compile("[0-6S]");

    public InitScriptHeader {
        defaultStart = List.copyOf(defaultStart);
        defaultStop = List.copyOf(defaultStop);
    }

    public static InitScriptHeader read(Path script) {
        List<String> lines;
        try {
            lines = Files.readAllLines(script, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new CommandExecutionException("cannot read " + script + ": " + e.getMessage());
        }
        return parse(lines);
    }

    static InitScriptHeader parse(List<String> lines) {
        List<String> start = new ArrayList<>();
        List<String> stop = new ArrayList<>();
        boolean inside = false;
        for (String line : lines) {
            String stripped = line.strip();
            if (stripped.equals("### BEGIN INIT INFO")) {
                inside = true;
            } else if (stripped.equals("### END INIT INFO")) {
                break;
            } else if (inside && line.startsWith("# Default-Start:")) {
                start = runlevels(line.substring("# Default-Start:".length()));
            } else if (inside && line.startsWith("# Default-Stop:")) {
                stop = runlevels(line.substring("# Default-Stop:".length()));
            }
        }
        return new InitScriptHeader(start, stop);
    }

    private static List<String> runlevels(String words) {
        List<String> levels = new ArrayList<>();
        for (String word : words.strip().split("\\s+")) {
            if (RUNLEVEL.matcher(word).matches() && !levels.contains(word)) {
                levels.add(word);
            }
        }
        return levels;
    }
}
