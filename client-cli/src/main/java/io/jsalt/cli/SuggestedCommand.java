package io.jsalt.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A command line a tool suggests to its user (look the job up later, stream the events), built with the
 * {@code -c DIR} the user ran with, so that it works when pasted: a hint without it would read
 * {@code /etc/jsalt} and fail. Words are quoted for a POSIX shell where they need it.
 */
public final class SuggestedCommand {
    /** Words a shell takes as they are: no quoting needed. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private SuggestedCommand() {}

    /**
     * {@code tool [-c configDir] words...}; {@code -c} is left out when {@code configDir} is the default
     * folder, as the user typed no {@code -c} either.
     */
    public static String of(Path configDir, String tool, String... words) {
        List<String> all = new ArrayList<>();
        all.add(tool);
        if (configDir != null && !configDir.equals(Path.of(ConfigLoader.DEFAULT_DIR))) {
            all.add("-c");
            all.add(configDir.toString());
        }
        all.addAll(List.of(words));
        return String.join(" ", all.stream().map(SuggestedCommand::quote).toList());
    }

    /** The word as one shell word: as it is when plain, else in single quotes (a quote inside as '\''). */
    static String quote(String word) {
        if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
