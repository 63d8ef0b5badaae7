package io.jsalt.cli.completion;

import io.jsalt.cli.call.CallCommand;
import io.jsalt.cli.daemon.MasterDaemon;
import io.jsalt.cli.daemon.MinionDaemon;
import io.jsalt.cli.event.EventCommand;
import io.jsalt.cli.jsalt.JsaltCommand;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.run.RunCommand;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * The shell completion scripts of the tools, generated from their picocli command specs (picocli's
 * AutoComplete), so they can never disagree with the options the tools really take. Each is a bash script
 * that zsh can source too (it loads bashcompinit itself). Checked in under {@code pkg/completion/}; a test
 * regenerates them and fails when they are stale. Regenerate with
 * {@code java -cp ... io.jsalt.cli.completion.CompletionScripts pkg/completion}.
 */
public final class CompletionScripts {
    private CompletionScripts() {}

    /** Tool name to a fresh command object (never run: only its annotations are read). */
    public static Map<String, Supplier<Object>> tools() {
        PrintStream nowhere = new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        Map<String, Supplier<Object>> tools = new LinkedHashMap<>();
        tools.put("jsalt", () -> new JsaltCommand(nowhere));
        tools.put("jsalt-key", () -> new KeyCommand(nowhere, new ByteArrayInputStream(new byte[0])));
        tools.put("jsalt-run", () -> new RunCommand(nowhere));
        tools.put("jsalt-call", () -> new CallCommand(nowhere));
        tools.put("jsalt-event", () -> new EventCommand(nowhere));
        tools.put("jsalt-master", MasterDaemon::new);
        tools.put("jsalt-minion", MinionDaemon::new);
        return tools;
    }

    /** The bash (and zsh) completion script of one tool. */
    public static String bash(String tool) {
        Supplier<Object> command = tools().get(tool);
        if (command == null) {
            throw new IllegalArgumentException("no tool named " + tool);
        }
        return AutoComplete.bash(tool, new CommandLine(command.get()));
    }

    /** The file a tool's script is kept in, in {@code dir}: bash-completion's naming, the tool's own name. */
    public static Path file(Path dir, String tool) {
        return dir.resolve(tool);
    }

    /** Writes every tool's script into the folder given as the only argument. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: CompletionScripts <folder>   (the checked-in ones are in pkg/completion)");
            System.exit(64);
        }
        Path dir = Path.of(args[0]);
        try {
            Files.createDirectories(dir);
            for (String tool : tools().keySet()) {
                Files.writeString(file(dir, tool), bash(tool), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
