package io.jsalt.modules.builtin.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandRunnerTest {

    private static CommandSpec spec(List<String> argv, Map<String, String> env, String stdin, Duration timeout,
                                    boolean merge, int maxBytes) {
        return new CommandSpec(argv, Path.of("/"), env, stdin, timeout, merge, maxBytes);
    }

    @Test
    void capturesBothStreamsSeparately() throws Exception {
        CommandOutcome outcome = CommandRunner.run(spec(List.of("sh", "-c", "echo o; echo e >&2; exit 4"), Map.of(),
                null, null, false, 1024));

        assertThat(outcome.stdout()).isEqualTo("o\n");
        assertThat(outcome.stderr()).isEqualTo("e\n");
        assertThat(outcome.exitCode()).isEqualTo(4);
        assertThat(outcome.timedOut()).isFalse();
    }

    @Test
    void aSmallCapTruncatesEachStreamAndNotesIt() throws Exception {
        CommandOutcome outcome = CommandRunner.run(spec(List.of("sh", "-c", "echo 0123456789; echo abcdefghij >&2"),
                Map.of(), null, null, false, 4));

        assertThat(outcome.stdout()).isEqualTo("0123\n[output truncated at 4 bytes]");
        assertThat(outcome.stderr()).isEqualTo("abcd\n[output truncated at 4 bytes]");
    }

    @Test
    void aNullEnvironmentValueRemovesTheVariable() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", null);
        CommandOutcome outcome = CommandRunner.run(spec(List.of("sh", "-c", "echo \"[${HOME-unset}]\""), env, null,
                null, true, 1024));

        assertThat(outcome.stdout()).isEqualTo("[unset]\n");
    }

    @Test
    void aProcessThatIgnoresStdinDoesNotBlockTheWriter() throws Exception {
        CommandOutcome outcome = CommandRunner.run(spec(List.of("true"), Map.of(), "x".repeat(1 << 20), null,
                true, 1024));

        assertThat(outcome.exitCode()).isZero();
    }

    @Test
    void aBackgroundChildHoldingThePipeDoesNotHoldTheCaller() throws Exception {
        long started = System.nanoTime();
        CommandOutcome outcome = CommandRunner.run(spec(List.of("sh", "-c", "sleep 20 & echo $!"),
                Map.of(), null, Duration.ofSeconds(30), true, 1024));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        assertThat(outcome.timedOut()).isFalse();
        assertThat(outcome.exitCode()).isZero();
        long orphan = Long.parseLong(outcome.stdout().strip());
        ProcessHandle.of(orphan).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void launchFailureCarriesTheShellExitCode(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("script"), "echo hi\n");
        assertThatThrownBy(() -> CommandRunner.run(spec(List.of("/no/such/program"), Map.of(), null, null, true, 16)))
                .isInstanceOf(CommandLaunchException.class)
                .hasMessage("Unable to run command '/no/such/program': No such file or directory")
                .extracting(e -> ((CommandLaunchException) e).exitCode()).isEqualTo(127);
        assertThatThrownBy(() -> CommandRunner.run(spec(List.of(notExecutable.toString()), Map.of(), null, null, true, 16)))
                .isInstanceOf(CommandLaunchException.class)
                .extracting(e -> ((CommandLaunchException) e).exitCode()).isEqualTo(126);
    }

    @Test
    void specRefusesAnEmptyCommandAndANonPositiveTimeout() {
        assertThatThrownBy(() -> spec(List.of(), Map.of(), null, null, true, 16))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> spec(List.of("true"), Map.of(), null, Duration.ZERO, true, 16))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
