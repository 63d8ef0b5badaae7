package io.jsalt.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.completion.CompletionScripts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every tool's {@code --help} renders as written: picocli warns on stderr about a stray {@code %} and prints it raw. */
class HelpTextTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream realErr;

    @BeforeEach
    void captureStderr() {
        realErr = System.err;
        System.setErr(new PrintStream(err, true, UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(realErr);
    }

    @Test
    void everyToolsHelpRendersWithoutAWarning() {
        for (Map.Entry<String, Supplier<Object>> tool : CompletionScripts.tools().entrySet()) {
            String help = new CommandLine(tool.getValue().get()).getUsageMessage(CommandLine.Help.Ansi.OFF);

            assertThat(help).as(tool.getKey()).contains("Usage: " + tool.getKey());
        }
        assertThat(err.toString(UTF_8)).isEmpty();
    }
}
