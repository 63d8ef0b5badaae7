package io.jsalt.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Runs a picocli command and maps its outcome to an {@link ExitCode}: usage errors to 64, a
 * {@link CliException} to its own code with its message on stderr. Only {@code main} methods exit.
 *
 * <p>Every tool reads its command line by Salt's rule (optparse with interspersed arguments): a word that
 * begins with {@code -} is an option wherever it stands, also after the function, and one the tool does not
 * have is refused with {@code no such option: --outt} (exit 64) instead of being passed on as an argument;
 * {@code --} ends the options, so that every later word is an argument. Negative numbers ({@code -1}) and a
 * lone {@code -} are arguments (where optparse would refuse {@code -1}).
 */
public final class ToolRunner {
    private ToolRunner() {}

    /**
     * @param command returns an {@link ExitCode}, or an {@link Integer} when the exit code is another
     *     program's (jsalt-call's --retcode-passthrough)
     */
    public static int run(Callable<?> command, PrintStream err, String... args) {
        CommandLine cli = commandLine(command);
        Handlers handlers = new Handlers(err);
        cli.setExecutionExceptionHandler(handlers);
        cli.setParameterExceptionHandler(handlers);
        cli.setExitCodeExceptionMapper(handlers);
        cli.setErr(new java.io.PrintWriter(err, true));
        int code = cli.execute(args);
        Object result = cli.getExecutionResult();
        if (result instanceof Integer passedThrough) {
            return passedThrough;
        }
        return result instanceof ExitCode e ? e.code() : code;
    }

    /**
     * Runs a command whose options are already set (jsalt's plain command lines and a daemon's usual start-up
     * line, read without picocli), its outcome mapped as {@link #run} maps it.
     */
    public static int call(Callable<?> command, PrintStream err) {
        Object result;
        try {
            result = command.call();
        } catch (Exception e) {
            return failed(e, err);
        }
        if (result instanceof Integer passedThrough) {
            return passedThrough;
        }
        return result instanceof ExitCode e ? e.code() : ExitCode.OK.code();
    }

    /**
     * On the run that records the classes of a tool's CDS archive (bin/jsalt-env sets {@code jsalt.cds.recording}),
     * after a command that was run without picocli: builds picocli's model of a command like it, parses
     * {@code args} and renders its help, so that the archive holds picocli's classes for the runs that need them
     * (help, the version, a mistyped option); loaded from its jar instead, they cost such a run ~0.07 CPU-s.
     */
    public static void loadForArchive(Object command, String... args) {
        if (Boolean.getBoolean("jsalt.cds.recording")) {
            CommandLine cli = commandLine(command);
            cli.parseArgs(args);
            cli.getUsageMessage();
        }
    }

    /** What a failed run prints, and its exit code: a CliException's own message and code, else the exception. */
    private static int failed(Exception ex, PrintStream err) {
        if (ex instanceof CliException ce) {
            err.println("ERROR: " + ce.getMessage());
            return ce.exitCode().code();
        }
        err.println("ERROR: " + ex);
        return ExitCode.SOFTWARE.code();
    }

    /**
     * What a failed run prints and exits with. A class, not lambdas: picocli's handler interfaces are Java 5
     * classes, which a CDS archive leaves out once a lambda made at dump time has linked them; each run then
     * searched the class path's jars for them (docs/BENCHMARKS.md, session 12).
     */
    private static final class Handlers implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler,
            CommandLine.IExitCodeExceptionMapper {
        private final PrintStream err;

        Handlers(PrintStream err) {
            this.err = err;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parsed) {
            return failed(ex, err);
        }

        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            if (ex instanceof UnmatchedArgumentException unmatched && unmatched.isUnknownOption()) {
                noSuchOption(unmatched, err);
            } else {
                err.println(ex.getMessage());
                ex.getCommandLine().usage(err);
            }
            return ExitCode.USAGE.code();
        }

        @Override
        public int getExitCode(Throwable exception) {
            return ExitCode.SOFTWARE.code();
        }
    }

    /** The command line every tool is read with (the rule above); tests parse with it too. */
    public static CommandLine commandLine(Object command) {
        // picocli's default: an unknown word that begins with '-' is an unknown option, not a positional parameter
        return new CommandLine(command).setUnmatchedOptionsArePositionalParams(false);
    }

    /** Salt's words for a mistyped option ("salt: error: no such option: --outt"), a suggestion, and where help is. */
    private static void noSuchOption(UnmatchedArgumentException ex, PrintStream err) {
        CommandLine cmd = ex.getCommandLine();
        String tool = cmd.getCommandName();
        String option = ex.getUnmatched().get(0);
        err.println(tool + ": error: no such option: " + option);
        List<String> suggestions = OptionSuggestions.near(option, cmd.getCommandSpec().optionsMap().keySet());
        if (!suggestions.isEmpty()) {
            err.println("Did you mean " + String.join(" or ", suggestions) + "?");
        }
        boolean takesArguments = cmd.getCommandSpec().positionalParameters().stream().anyMatch(p -> p.isMultiValue());
        if (takesArguments) {
            err.println("Words that begin with '-' are options wherever they stand: quote a command together with its "
                    + "options ('ls -l'), or put -- before the arguments that begin with '-'.");
        }
        err.println("See '" + tool + " --help'.");
    }
}
