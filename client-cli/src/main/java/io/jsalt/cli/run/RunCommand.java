package io.jsalt.cli.run;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.VersionsReportOption;
import io.jsalt.cli.jsalt.ArgParser;
import io.jsalt.cli.output.HighstateOutputter;
import io.jsalt.cli.output.Palette;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.StateOutputSettings;
import io.jsalt.transport.codec.WireException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jsalt-run <function> [arguments...]}: runs a runner function on the master (Salt's salt-run) and
 * prints what it returns. {@code state.event} and {@code supervisor.watch} are not sent to the master: they
 * stream the event bus here, as {@code jsalt-event} does.
 */
@Command(name = "jsalt-run", mixinStandardHelpOptions = true, version = "jsalt-run 0.1.0",
        description = "Run a runner function on the master (jobs.*, manage.*, target.preview, state.event) and print its return.")
public final class RunCommand implements Callable<ExitCode> {
    /** Runners that publish and wait (manage.status, jobs.active) need the master's timeouts and some slack. */
    private static final int SLACK_SECONDS = 30;

    @Option(names = {"-c", "--config-dir"}, description = "Folder holding the 'master' config file (default: ${DEFAULT-VALUE}).",
            defaultValue = ConfigLoader.DEFAULT_DIR)
    Path configDir;

    @Option(names = {"-t", "--timeout"}, description = "Seconds to wait for the master's answer "
            + "(default: the master's timeout, or the call's timeout=N, + gather_job_timeout + " + SLACK_SECONDS + ").")
    Integer timeout;

    @Option(names = "--out", description = "Output format: nested (default, or the one the runner names: highstate for "
            + "jobs.lookup_jid of a state run), json, yaml, txt, raw, quiet.")
    String out;

    @Option(names = "--out-indent", description = "Spaces per level for --out json (default: ${DEFAULT-VALUE}; 0: one line).",
            defaultValue = "4")
    int outIndent;

    @Mixin
    VersionsReportOption versionsReport = new VersionsReportOption();

    @Parameters(index = "0", paramLabel = "<function>", description = "runner.function, e.g. jobs.lookup_jid or manage.status.")
    String function;

    @Parameters(index = "1..*", paramLabel = "<arg>", description = "Arguments; key=value words are keyword arguments.")
    List<String> args = new ArrayList<>();

    private final PrintStream stdout;

    public RunCommand(PrintStream stdout) {
        this.stdout = stdout;
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new RunCommand(System.out), System.err, argv));
    }

    @Override
    public ExitCode call() throws IOException {
        if (versionsReport.printIfRequested(stdout)) {
            return ExitCode.OK;
        }
        if (outIndent < 0 || outIndent > 16) {
            throw new CliException(ExitCode.USAGE, "--out-indent must be 0..16");
        }
        if (timeout != null && timeout <= 0) {
            throw new CliException(ExitCode.USAGE, "--timeout must be at least 1 second");
        }
        RunnerOutput output;
        try {
            output = new RunnerOutput(out, outIndent);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        RunnerRequest request = RunnerRequest.of(function, ArgParser.parse(args), System.getProperty("user.name"));
        if (StateEvent.FUNCTION.equals(function)) {
            return StateEvent.from(request).command(stdout, configDir).call();
        }
        if (SupervisorWatch.FUNCTION.equals(function)) {
            return SupervisorWatch.from(request).run(stdout, configDir, "json".equals(out));
        }
        MasterConfig config = ConfigLoader.master(configDir);
        StateOutputSettings states = config.stateOutput();
        output.highstate(new HighstateOutputter(Palette.NONE, new HighstateOutputter.Options(states.stateOutput(),
                states.showsUnchanged(), states.stateOutputProfile())));
        // manage.status timeout=60 makes the master wait that long before it answers
        long runnerTimeout = request.kwarg().get("timeout") instanceof Number n ? Math.max(0, n.longValue()) : config.timeout();
        Duration wait = Duration.ofSeconds(timeout != null ? timeout : runnerTimeout + config.gatherJobTimeout() + SLACK_SECONDS);
        RunnerReply reply;
        try (MasterConnection master = MasterConnection.open(config)) {
            reply = RunnerReply.fromLoad(master.call(request.toLoad(), wait));
        } catch (WireException e) {
            throw new CliException(ExitCode.SOFTWARE, "unreadable runner answer from the master: " + e.getMessage());
        }
        if (reply.success()) {
            output.print(stdout, reply.ret());
            return ExitCode.OK;
        }
        if (reply.ret() instanceof String message) {
            throw new CliException(ExitCode.MINION_ERROR, message);
        }
        output.print(stdout, reply.ret());
        throw new CliException(ExitCode.MINION_ERROR, "runner " + function + " failed");
    }
}
