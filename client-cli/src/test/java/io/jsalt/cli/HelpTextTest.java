package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.completion.CompletionScripts;
import io.jsalt.cli.testing.CapturedStderr;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** Every tool's {@code --help} renders as written: picocli warns on stderr about a stray {@code %} and prints it raw. */
class HelpTextTest {
    @RegisterExtension
    final CapturedStderr stderr = new CapturedStderr();

    @Test
    void everyToolsHelpRendersWithoutAWarning() {
        for (Map.Entry<String, Supplier<Object>> tool : CompletionScripts.tools().entrySet()) {
            String help = new CommandLine(tool.getValue().get()).getUsageMessage(CommandLine.Help.Ansi.OFF);

            assertThat(help).as(tool.getKey()).contains("Usage: " + tool.getKey());
        }
        assertThat(stderr.text()).isEmpty();
    }
}
