package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The current SysV runlevel, as Salt's debian_service reads it from the {@code runlevel} command. */
final class Runlevel {

    /** Debian's default runlevel, which Salt assumes where there is none (a container without init). */
    static final String DEFAULT = "2";
    private static final Pattern LEVEL = Pattern.compile("[0-6S]");

    private Runlevel() {
    }

    static String current() {
        try {
            CommandOutcome outcome = ExternalTool.run(List.of("runlevel"), Map.of(), Duration.ofSeconds(10));
            return parse(outcome.stdout());
        } catch (CommandExecutionException e) {
            return DEFAULT; // no runlevel command at all
        }
    }

    /** {@code N 2} gives 2; {@code unknown} (no utmp record, as in a container) gives the default. */
    static String parse(String output) {
        String[] words = output.strip().split("\\s+");
        if (words.length == 2 && LEVEL.matcher(words[1]).matches()) {
            return words[1];
        }
        return DEFAULT;
    }
}
