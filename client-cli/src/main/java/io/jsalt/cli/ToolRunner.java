package io.jsalt.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * Runs a picocli command and maps its outcome to an {@link ExitCode}: usage errors to 64, a
 * {@link CliException} to its own code with its message on stderr. Only {@code main} methods exit.
 */
public final class ToolRunner {
    private ToolRunner() {}

    /**
     * @param command returns an {@link ExitCode}, or an {@link Integer} when the exit code is another
     *     program's (jsalt-call's --retcode-passthrough)
     */
    public static int run(Callable<?> command, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setUnmatchedOptionsArePositionalParams(true);
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof CliException ce) {
                err.println("ERROR: " + ce.getMessage());
                return ce.exitCode().code();
            }
            err.println("ERROR: " + ex);
            return ExitCode.SOFTWARE.code();
        });
        cli.setParameterExceptionHandler((ex, a) -> {
            err.println(ex.getMessage());
            ex.getCommandLine().usage(err);
            return ExitCode.USAGE.code();
        });
        cli.setExitCodeExceptionMapper(t -> ExitCode.SOFTWARE.code());
        cli.setErr(new java.io.PrintWriter(err, true));
        int code = cli.execute(args);
        Object result = cli.getExecutionResult();
        if (result instanceof Integer passedThrough) {
            return passedThrough;
        }
        return result instanceof ExitCode e ? e.code() : code;
    }
}
