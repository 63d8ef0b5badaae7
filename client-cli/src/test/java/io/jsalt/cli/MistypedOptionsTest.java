package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.call.CallCommand;
import io.jsalt.cli.event.EventCommand;
import io.jsalt.cli.jsalt.JsaltCommand;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.cli.run.RunCommand;
import io.jsalt.cli.testing.Console;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every tool refuses a mistyped option as Salt does ("no such option", exit 64), wherever it stands, before it
 * reads a config or reaches a master; and {@code --} lets arguments that begin with '-' through.
 */
class MistypedOptionsTest {
    @TempDir
    Path emptyConfigDir;

    private static Function<PrintStream, ? extends Callable<?>> tool(String name) {
        return switch (name) {
            case "jsalt" -> JsaltCommand::new;
            case "jsalt-run" -> RunCommand::new;
            case "jsalt-call" -> CallCommand::new;
            case "jsalt-key" -> out -> new KeyCommand(out, new ByteArrayInputStream(new byte[0]));
            case "jsalt-event" -> EventCommand::new;
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jsalt       | --tiemout 3 * test.ping  | --tiemout",
        "jsalt       | * test.ping --outt json  | --outt",
        "jsalt       | * cmd.run ls -la         | -la",
        "jsalt-run   | manage.up --outt json    | --outt",
        "jsalt-call  | --locl test.ping         | --locl",
        "jsalt-call  | test.ping --lcoal        | --lcoal",
        "jsalt-key   | --lsit                   | --lsit",
        "jsalt-event | salt/job --cuont 2       | --cuont"})
    void aMistypedOptionIsRefusedWithSaltsWordsAndNothingIsRun(String name, String args, String option) {
        Console.Run run = Console.run(tool(name), ("-c " + emptyConfigDir + " " + args).split(" "));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(run.stderr()).as(run.toString()).startsWith(name + ": error: no such option: " + option + "\n");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void jsaltSuggestsTheOptionMeant() {
        Console.Run run = Console.run(JsaltCommand::new, "--tiemout", "3", "*", "test.ping");

        assertThat(run.stderr()).contains("Did you mean --timeout?");
    }

    @Test
    void afterDoubleDashJsaltTakesDashedWordsAsArgumentsAndGoesOnToReadItsConfig() {
        Console.Run run = Console.run(JsaltCommand::new, "-c", emptyConfigDir.resolve("absent").toString(), "*", "test.arg",
                "--", "-la", "--outt");

        // past the command line: the missing config folder is the first problem met
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CONFIG.code());
        assertThat(run.stderr()).doesNotContain("no such option");
    }
}
