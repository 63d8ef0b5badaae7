package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.cli.testing.Console;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** How a tool's outcome becomes its exit code and its message on stderr; nothing here exits the JVM. */
class ToolRunnerTest {

    @Command(name = "demo")
    static final class Demo implements Callable<ExitCode> {
        @Option(names = "--fail") String fail;
        @Parameters(index = "0", paramLabel = "<target>") String target;
        @Parameters(index = "1..*") List<String> rest = new ArrayList<>();

        @Override
        public ExitCode call() {
            if ("cli".equals(fail)) {
                throw new CliException(ExitCode.UNAVAILABLE, "the master is not running");
            }
            if ("bug".equals(fail)) {
                throw new IllegalStateException("boom");
            }
            return "nobody".equals(target) ? ExitCode.NO_RETURN : ExitCode.OK;
        }
    }

    @Command(name = "bare")
    static final class Bare implements Callable<ExitCode> {
        @Override
        public ExitCode call() {
            return ExitCode.OK;
        }
    }

    @Command(name = "passthrough")
    static final class Passthrough implements Callable<Integer> {
        @Override
        public Integer call() {
            return 42;
        }
    }

    @Test
    void anIntegerResultIsAnotherProgramsExitCodePassedThroughAsIs() {
        assertThat(Console.run(out -> new Passthrough()).exitCode()).isEqualTo(42);
    }

    @Test
    void returnsTheCodeOfTheExitCodeTheCommandReturns() {
        assertThat(Console.run(out -> new Demo(), "web-1").exitCode()).isZero();
        assertThat(Console.run(out -> new Demo(), "nobody").exitCode()).isEqualTo(2);
    }

    @Test
    void aCliExceptionBecomesItsExitCodeAndOneErrorLine() {
        Console.Run run = Console.run(out -> new Demo(), "--fail", "cli", "web-1");

        assertThat(run.exitCode()).isEqualTo(69);
        assertThat(run.stderr()).isEqualTo("ERROR: the master is not running\n");
    }

    @Test
    void anUnexpectedFailureIsSoftwareErrorWithoutAStackTrace() {
        Console.Run run = Console.run(out -> new Demo(), "--fail", "bug", "web-1");

        assertThat(run.exitCode()).isEqualTo(70);
        assertThat(run.stderr()).startsWith("ERROR: ").contains("boom").doesNotContain("\tat ");
    }

    @Test
    void aMissingParameterIsAUsageErrorWithTheUsageOnStderr() {
        Console.Run run = Console.run(out -> new Demo());

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("<target>").contains("Usage:");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        assertThat(Console.run(out -> new Bare(), "--bogus").exitCode()).isEqualTo(64);
    }

    @Test
    void aWordBeginningWithADashAfterTheFunctionIsAnOptionAsInSalt() {
        Console.Run run = Console.run(out -> new Demo(), "nobody", "cmd.run", "ls", "-l");

        // 64, not the 2 the command returns for "nobody": it never ran
        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).startsWith("demo: error: no such option: -l\n").contains("put -- before");
    }

    @Test
    void aKnownOptionAfterTheArgumentsIsStillTheOption() {
        Console.Run run = Console.run(out -> new Demo(), "web-1", "cmd.run", "ls", "--fail", "cli");

        assertThat(run.exitCode()).isEqualTo(69);
    }

    @Test
    void doubleDashEndsTheOptionsSoLaterWordsAreArgumentsWhateverTheyLookLike() {
        Demo demo = new Demo();

        int code = Console.run(out -> demo, "web-1", "test.arg", "--", "-la", "--fail", "cli").exitCode();

        assertThat(code).isZero();
        assertThat(demo.rest).containsExactly("test.arg", "-la", "--fail", "cli");
    }

    @Test
    void negativeNumbersKeyValueWordsAndALoneDashAreArguments() {
        Demo demo = new Demo();

        int code = Console.run(out -> demo, "web-1", "test.arg", "-1", "-2.5", "-", "opt=-x").exitCode();

        assertThat(code).isZero();
        assertThat(demo.rest).containsExactly("test.arg", "-1", "-2.5", "-", "opt=-x");
    }

    @Test
    void aMistypedOptionSuggestsTheOneMeant() {
        Console.Run run = Console.run(out -> new Demo(), "--fial", "cli", "web-1");

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("no such option: --fial").contains("Did you mean --fail?").contains("See 'demo --help'.");
    }
}
