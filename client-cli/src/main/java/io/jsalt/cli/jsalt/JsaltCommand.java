package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.EauthCredentials;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.VersionsReportOption;
import io.jsalt.cli.output.Json;
import io.jsalt.cli.output.HighstateOutputter;
import io.jsalt.cli.output.Outputter;
import io.jsalt.cli.output.StateOutputOptions;
import io.jsalt.cli.output.Palette;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jsalt [options] <target> <function> [arguments...]}: publish a job and print every answer. An option
 * added here (or to a mixin) is also named in {@link PlainArguments}, which reads plain command lines without
 * picocli; PlainArgumentsTest fails until it is.
 */
@Command(name = "jsalt", mixinStandardHelpOptions = true, version = "jsalt 0.1.0",
        description = "Run a module function on the targeted minions and print their answers.")
public final class JsaltCommand implements Callable<ExitCode> {
    static final String NO_MATCH = "No minions matched the target. No command was sent, no jid was assigned.";
    /** Salt's line on stderr when a minion failed or did not return (salt/cli/salt.py), whatever the outputter. */
    static final String NON_ZERO = "ERROR: Minions returned with non-zero exit code";

    @Option(names = {"-c", "--config-dir"}, description = "Folder holding the 'master' config file (default: ${DEFAULT-VALUE}).",
            defaultValue = ConfigLoader.DEFAULT_DIR)
    Path configDir;

    @Mixin
    TargetOptions targeting = new TargetOptions();

    @Mixin
    VersionsReportOption versionsReport = new VersionsReportOption();

    @Option(names = "--preview-target", description = "Print the minions the target matches, and run nothing.")
    boolean previewTarget;

    @Option(names = {"-t", "--timeout"}, description = "Seconds to wait for answers before asking the silent minions "
            + "whether they still run the job (default: the master's 'timeout').")
    Integer timeout;

    @Option(names = {"-b", "--batch", "--batch-size"}, paramLabel = "N|N%", description = "Run on N minions (or N%% of them) at a time.")
    String batch;

    @Option(names = "--batch-wait", paramLabel = "SECONDS", description = "Seconds to wait after a batch before the next one (default: 0).",
            defaultValue = "0")
    int batchWait;

    @Option(names = "--failhard", description = "With --batch: stop after a batch in which a minion returned a non-zero retcode.")
    boolean failhard;

    @Option(names = {"-p", "--progress"}, description = "Show a progress bar on stderr (only on a terminal).")
    boolean progress;

    @Option(names = "--out", description = "Output format: nested (the default; highstate for the returns of state functions), "
            + "highstate, json, yaml, txt, raw, quiet.")
    String out;

    @picocli.CommandLine.Mixin
    StateOutputOptions stateOutput = new StateOutputOptions();

    @Option(names = "--out-indent", description = "Spaces per level for --out json (default: ${DEFAULT-VALUE}; 0: one line).",
            defaultValue = "4")
    int outIndent;

    @Option(names = "--out-file", description = "Write the returns to this file instead of stdout.")
    Path outFile;

    @Option(names = {"--no-color", "--no-colour"}, description = "Never colour the output.")
    boolean noColor;

    @Option(names = {"--force-color", "--force-colour"}, description = "Colour the output even when it is not a terminal.")
    boolean forceColor;

    @Option(names = {"-s", "--static"}, description = "Print all answers at once, after gathering.")
    boolean staticOutput;

    @Option(names = "--async", description = "Publish, print the jid and exit without waiting.")
    boolean async;

    @Option(names = {"-v", "--verbose"}, description = "Print the jid first, the minions that did not answer, and the returns the master could not verify.")
    boolean verbose;

    @Option(names = "--show-jid", description = "Print the jid before the returns.")
    boolean showJid;

    @Option(names = "--summary", description = "Print a summary: targeted, returned, did not return, with errors.")
    boolean summary;

    @Option(names = "--hide-timeout", description = "Do not print the minions that did not answer (the exit code still says so).")
    boolean hideTimeout;

    @Option(names = {"-a", "--auth", "--eauth", "--external-auth"}, paramLabel = "EAUTH",
            description = "Run as a user of this external_auth backend (e.g. file), within their rights, instead of the master's user.")
    String eauth;

    @Option(names = {"-T", "--make-token"}, description = "With -a: keep a token in ~/.salt_token, so later calls need no password.")
    boolean makeToken;

    @Option(names = "--username", description = "With -a: the user (else $JSALT_USERNAME, else asked).")
    String username;

    @Option(names = "--password", description = "With -a: the password (else $JSALT_PASSWORD, else asked unechoed).")
    String password;

    @Parameters(index = "0", paramLabel = "<target>", description = "Which minions: a glob by default.")
    String target;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<function>", description = "module.function, e.g. test.ping.")
    String function;

    @Parameters(index = "2..*", paramLabel = "<arg>", description = "Arguments; key=value words are keyword arguments.")
    List<String> args = new ArrayList<>();

    @Spec
    CommandSpec spec;
    /** Where diagnostics go when picocli did not read the command line (then {@link #spec} is null). */
    private PrintWriter plainErr;

    /** Seams for tests: the terminal, the clock, and a wrapper around the link to the master. */
    Terminal terminal = Terminal.detect();
    Ticker ticker = Ticker.SYSTEM;
    UnaryOperator<MasterLink> linkWrapper = UnaryOperator.identity();
    /** Seams for tests: Salt's token_file and the environment the eauth user name and password may come from. */
    Path tokenFile = EauthCredentials.defaultTokenFile();
    java.util.function.Function<String, String> env = System::getenv;

    private final PrintStream stdout;

    public JsaltCommand(PrintStream stdout) {
        this.stdout = stdout;
    }

    /** The jid being waited for, for the Ctrl-C notice; null when no job is in flight. */
    private volatile String jidInFlight;

    public static void main(String[] argv) {
        Logging.forCli();
        JsaltCommand command = new JsaltCommand(System.out);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> command.interrupted(System.err), "jsalt-cli-interrupted"));
        System.exit(command.execute(System.err, argv));
    }

    /**
     * Runs the command as {@link ToolRunner#run} does; a plain command line is read without picocli, whose start
     * and model of these options cost more than the rest of the start-up before the config ({@link PlainArguments}).
     */
    int execute(PrintStream err, String... argv) {
        if (!PlainArguments.read(argv, this)) {
            return ToolRunner.run(this, err, argv);
        }
        plainErr = new PrintWriter(err, true);
        int code = ToolRunner.call(this, err);
        ToolRunner.loadForArchive(new JsaltCommand(stdout), argv);
        return code;
    }

    /** Salt's words when Ctrl-C ends the wait: the job goes on, and this is how to find its returns. */
    void interrupted(PrintStream err) {
        String jid = jidInFlight;
        if (jid != null) {
            err.println();
            err.println("Exiting gracefully on Ctrl-c");
            err.println("This job's jid is: " + jid);
            err.println("The minions may not have all finished running and any remaining minions will return upon completion. "
                    + "To look up the return data for this job later, run the following command:");
            err.println();
            err.println(new LookupHint(configDir).command(jid));
            err.flush();
        }
    }

    @Override
    public ExitCode call() throws IOException, InterruptedException {
        if (versionsReport.printIfRequested(stdout)) {
            return ExitCode.OK;
        }
        try {
            return run();
        } finally {
            jidInFlight = null;
        }
    }

    private ExitCode run() throws IOException, InterruptedException {
        String tgtType = targeting.tgtType();
        Optional<BatchSize> batchSize = checkUsage();
        Palette palette = Palette.choose(terminal.stdout() && outFile == null, forceColor, noColor);
        Outputter outputter;
        HighstateOutputter highstate;
        try {
            stateOutput.check();
            outputter = out == null || "highstate".equals(out) ? null : Outputter.named(out, outIndent, palette);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        MasterConfig config = ConfigLoader.master(configDir);
        // the master's state_output/state_verbose, under the flags (Salt's client reads the master config too)
        highstate = stateOutput.outputter(palette, config.stateOutput());
        if (outputter == null) {
            outputter = out == null ? Outputter.named("nested", outIndent, palette) : highstate;
        }
        // a state run is shown with the highstate outputter unless the user chose one (Salt's rule)
        Outputter forStateRuns = out == null ? highstate : null;
        Duration wait = Duration.ofSeconds(timeout != null && timeout > 0 ? timeout : config.timeout());
        JobSpec job = new JobSpec(targeting.tgt(target), tgtType, function, ArgParser.parse(args));
        Optional<Map<String, Object>> user = new EauthCredentials(eauth, makeToken, username, password, env,
                System.console(), tokenFile).resolve(config);
        try (MasterConnection connection = user.isPresent() ? MasterConnection.openEauth(config, user.get()) : MasterConnection.open(config);
                LocalEventClient events = user.isPresent() ? null : connectEvents(config);
                PrintStream results = resultStream()) {
            MasterLink master = linkWrapper.apply(user.isPresent() ? new EauthMasterLink(connection)
                    : new LiveMasterLink(connection, events, System.getProperty("user.name")));
            if (previewTarget) {
                return preview(master, job, results);
            }
            if (async) {
                Published p = master.publish(job);
                if (p.minions().isEmpty() && p.undecided().isEmpty()) {
                    return noMatch();
                }
                stdout.println("Executed command with job ID: " + p.jid());
                return ExitCode.OK;
            }
            JobRun jobs = new JobRun(master, new JobWaiter(master, ticker, wait, Duration.ofSeconds(config.gatherJobTimeout())),
                    new LookupHint(configDir));
            try {
                if (batchSize.isPresent()) {
                    return batch(master, jobs, job, batchSize.get(), outputter, forStateRuns, results);
                }
                ProgressBar bar = progressBar(0);
                ReturnPrinter printer = new ReturnPrinter(outputter, results, !staticOutput, hideTimeout, bar).withHighstate(forStateRuns);
                Optional<JobRun.Outcome> outcome = jobs.run(job, new JidAnnouncer(printer, bar));
                if (outcome.isEmpty()) {
                    return noMatch();
                }
                printer.finish();
                JobRun.Outcome o = outcome.get();
                return report(o.targeted().size(), o.answers().size(), o.notReturned(), o.failed());
            } catch (IOException e) {
                throw masterWentAway(e);
            }
        }
    }

    /**
     * The master closed its event socket while this run waited (it stopped or died): the job goes on, and with
     * several masters its minions return to another one, where {@code jobs.lookup_jid} shows what they answered.
     */
    private CliException masterWentAway(IOException e) {
        String jid = jidInFlight;
        if (jid == null) {
            return new CliException(ExitCode.UNAVAILABLE, "the master went away: " + e.getMessage());
        }
        return new CliException(ExitCode.UNAVAILABLE, "the master went away while waiting for job " + jid + " (" + e.getMessage()
                + "). The minions go on with it and return to another master of the cluster (a minion with master: [m1, m2]);"
                + " look the job up on one with: jsalt-run -c <its config folder> jobs.lookup_jid " + jid
                + ", or here once the master is back: " + new LookupHint(configDir).command(jid));
    }

    private Optional<BatchSize> checkUsage() {
        if (outIndent < 0 || outIndent > 16) {
            throw new CliException(ExitCode.USAGE, "--out-indent must be 0..16");
        }
        if (noColor && forceColor) {
            throw new CliException(ExitCode.USAGE, "choose one of --no-color and --force-color");
        }
        if (function == null && !previewTarget) {
            throw new CliException(ExitCode.USAGE, "missing <function> (e.g. test.ping)");
        }
        if (batchWait < 0) {
            throw new CliException(ExitCode.USAGE, "--batch-wait must be 0 or more seconds");
        }
        if (batch == null) {
            if (failhard || batchWait > 0) {
                throw new CliException(ExitCode.USAGE, (failhard ? "--failhard" : "--batch-wait") + " needs --batch");
            }
            return Optional.empty();
        }
        if (async) {
            throw new CliException(ExitCode.USAGE, "choose one of --async and --batch");
        }
        return Optional.of(BatchSize.parse(batch));
    }

    /** Salt's --preview-target: the matched minions as a list; nothing matched is an error. */
    private ExitCode preview(MasterLink master, JobSpec job, PrintStream results) {
        List<String> minions = master.preview(job.tgt(), job.tgtType()).minions();
        if (minions.isEmpty()) {
            err().println("No minions matched the target.");
            return ExitCode.NO_RETURN;
        }
        if ("json".equals(out)) {
            results.println(Json.write(minions, outIndent));
        } else if (!"quiet".equals(out)) {
            minions.forEach(id -> results.println("- " + id));
        }
        return ExitCode.OK;
    }

    private ExitCode batch(MasterLink master, JobRun jobs, JobSpec job, BatchSize size, Outputter outputter, Outputter forStateRuns,
            PrintStream results)
            throws IOException, InterruptedException {
        TargetPreview resolved = master.preview(job.tgt(), job.tgtType());
        for (String id : resolved.undecided()) {
            err().println("Minion " + id + " is left out of the batch: the master does not know its grains yet.");
        }
        List<String> minions = resolved.minions();
        if (minions.isEmpty()) {
            err().println("No minions matched the target.");
            return ExitCode.NO_RETURN;
        }
        ProgressBar bar = progressBar(minions.size());
        ReturnPrinter printer = new ReturnPrinter(outputter, results, !staticOutput, hideTimeout, bar).withHighstate(forStateRuns);
        // --batch-wait is a pause the operator asked for, so a plain sleep is the right wait
        BatchRun.Pause pause = d -> Thread.sleep(d.toMillis());
        BatchRun.Result r = new BatchRun(master, jobs, err(), Duration.ofSeconds(batchWait), failhard, pause)
                .run(job, minions, size.of(minions.size()), new JidAnnouncer(printer, bar));
        resolved.missing().forEach(id -> printer.silent(id, Silence.NOT_CONNECTED));
        printer.finish();
        Map<String, String> notReturned = new LinkedHashMap<>(r.notReturned());
        resolved.missing().forEach(id -> notReturned.put(id, Silence.NOT_CONNECTED));
        return report(minions.size() + resolved.missing().size() - r.notRun().size(), r.answers().size(), notReturned, r.failed());
    }

    private ExitCode report(int targeted, int returned, Map<String, String> notReturned, long withErrors) {
        if (summary) {
            new JobSummary(targeted, returned, notReturned, (int) withErrors).print(stdout);
        }
        ExitCode code = exitCode(notReturned.size(), withErrors);
        if (code != ExitCode.OK) {
            err().println(NON_ZERO);
        }
        return code;
    }

    /** 2 when a minion did not return, else 1 when one returned a non-zero retcode, else 0. */
    static ExitCode exitCode(int notReturned, long failed) {
        if (notReturned > 0) {
            return ExitCode.NO_RETURN;
        }
        return failed > 0 ? ExitCode.MINION_ERROR : ExitCode.OK;
    }

    private ExitCode noMatch() {
        err().println(NO_MATCH);
        return ExitCode.NO_RETURN;
    }

    private ProgressBar progressBar(int total) {
        return progress && terminal.stderr() ? new ProgressBar(err(), ticker, total) : null;
    }

    private PrintWriter err() {
        return spec != null ? spec.commandLine().getErr() : plainErr;
    }

    /** Prints the jid as -v and --show-jid ask, then hands the run to the printer. */
    private final class JidAnnouncer implements JobRun.Listener {
        private final ReturnPrinter printer;
        private final ProgressBar bar;

        JidAnnouncer(ReturnPrinter printer, ProgressBar bar) {
            this.printer = printer;
            this.bar = bar;
        }

        @Override
        public void published(Published p) {
            jidInFlight = p.jid();
            if (bar != null && batch == null) {
                bar.total(p.minions().size() + p.missing().size());
                bar.draw();
            }
            if (verbose) {
                stdout.println("Executing job with jid " + p.jid());
                stdout.println("-------------------------------------------");
                stdout.println();
            } else if (showJid) {
                stdout.println("jid: " + p.jid());
            }
        }

        @Override
        public void answered(String id, Answer answer) {
            printer.answered(id, answer);
            if (verbose && !answer.verified()) {
                err().println(id + ": unverified return (this minion does not sign its returns; see docs/interop.md)");
                err().flush();
            }
        }

        @Override
        public void silent(String id, String notice) {
            printer.silent(id, notice);
        }
    }

    /** Where the returns go: stdout, or --out-file (the jid, summary and diagnostics stay on the terminal). */
    private PrintStream resultStream() {
        if (outFile == null) {
            return new PrintStream(stdout, true) {
                @Override
                public void close() {
                    flush(); // stdout belongs to the caller
                }
            };
        }
        try {
            return new PrintStream(Files.newOutputStream(outFile), true, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(ExitCode.USAGE, "cannot write --out-file " + outFile + ": " + e.getMessage());
        }
    }

    private static LocalEventClient connectEvents(MasterConfig config) {
        try {
            return LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot read the master's events in " + config.sockDir()
                    + ": " + e.getMessage() + " (run as the master's user, with the master running)");
        }
    }
}
