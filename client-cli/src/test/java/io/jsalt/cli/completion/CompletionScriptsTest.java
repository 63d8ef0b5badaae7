package io.jsalt.cli.completion;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The checked-in completion scripts are the ones the tools' option specs generate today, and bash uses them. */
class CompletionScriptsTest {
    private static final Path CHECKED_IN = Path.of("../pkg/completion");

    @Test
    void everyCheckedInScriptIsWhatTheToolsOptionsGenerateNow() throws IOException {
        assertThat(CompletionScripts.tools().keySet()).containsExactly("jsalt", "jsalt-key", "jsalt-run", "jsalt-call",
                "jsalt-event", "jsalt-master", "jsalt-minion");
        for (String tool : CompletionScripts.tools().keySet()) {
            Path file = CompletionScripts.file(CHECKED_IN, tool);
            assertThat(file).as("missing " + file + ": regenerate with CompletionScripts (see docs/cli.md)").exists();
            assertThat(Files.readString(file))
                    .as(file + " is stale: regenerate with `java -cp 'client-cli/target/classes:client-cli/target/lib/*' "
                            + "io.jsalt.cli.completion.CompletionScripts pkg/completion` and commit it")
                    .isEqualTo(CompletionScripts.bash(tool));
        }
    }

    @Test
    void bashCompletesAnOptionOfJsaltCallFromTheScript() throws Exception {
        String script = CompletionScripts.file(CHECKED_IN, "jsalt-call").toString();
        Process bash = new ProcessBuilder("bash", "-c", "source '" + script + "'; COMP_WORDS=(jsalt-call --retc); COMP_CWORD=1; "
                + "COMP_LINE='jsalt-call --retc'; COMP_POINT=${#COMP_LINE}; _complete_jsalt-call 2>/dev/null; "
                + "printf '%s\\n' \"${COMPREPLY[@]}\"").redirectErrorStream(true).start();
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();

        List<String> replies = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();

        assertThat(replies).containsExactly("--retcode-passthrough");
    }
}
