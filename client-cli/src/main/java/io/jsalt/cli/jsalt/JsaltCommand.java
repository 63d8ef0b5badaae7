package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.output.Outputter;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.PublishRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jsalt [options] <target> <function> [arguments...]}: publish a job and print every answer. */
@Command(name = "jsalt", mixinStandardHelpOptions = true, version = "jsalt 0.1.0",
        description = "Run a module function on the targeted minions and print their answers.")
public final class JsaltCommand implements Callable<ExitCode> {
    static final String NO_RESPONSE = "Minion did not return. [No response]";

    @Option(names = {"-c", "--config-dir"}, description = "Folder holding the 'master' config file (default: ${DEFAULT-VALUE}).",
            defaultValue = ConfigLoader.DEFAULT_DIR)
    Path configDir;

    @Option(names = {"-E", "--pcre"}, description = "The target is a regular expression (Salt's pcre).")
    boolean pcre;

    @Option(names = {"-L", "--list"}, description = "The target is a comma-separated list of minion ids.")
    boolean list;

    @Option(names = {"-t", "--timeout"}, description = "Seconds to wait for answers (default: the master's 'timeout').")
    Integer timeout;

    @Option(names = "--out", description = "Output format: nested (default), json, yaml, txt, raw, quiet.", defaultValue = "nested")
    String out;

    @Option(names = "--out-indent", description = "Spaces per level for --out json (default: ${DEFAULT-VALUE}; 0: one line).",
            defaultValue = "4")
    int outIndent;

    @Option(names = "--out-file", description = "Write the returns to this file instead of stdout.")
    Path outFile;

    @Option(names = {"-s", "--static"}, description = "Print all answers at once, after gathering.")
    boolean staticOutput;

    @Option(names = "--async", description = "Publish, print the jid and exit without waiting.")
    boolean async;

    @Option(names = {"-v", "--verbose"}, description = "Print the jid first, and the minions that did not answer.")
    boolean verbose;

    @Option(names = "--show-jid", description = "Print the jid before the returns.")
    boolean showJid;

    @Option(names = "--summary", description = "Print a summary: targeted, returned, did not return, with errors.")
    boolean summary;

    @Option(names = "--hide-timeout", description = "Do not print the minions that did not answer (the exit code still says so).")
    boolean hideTimeout;

    @Parameters(index = "0", paramLabel = "<target>", description = "Which minions: a glob by default.")
    String target;

    @Parameters(index = "1", paramLabel = "<function>", description = "module.function, e.g. test.ping.")
    String function;

    @Parameters(index = "2..*", paramLabel = "<arg>", description = "Arguments; key=value words are keyword arguments.")
    List<String> args = new ArrayList<>();

    private final PrintStream stdout;

    public JsaltCommand(PrintStream stdout) {
        this.stdout = stdout;
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new JsaltCommand(System.out), System.err, argv));
    }

    @Override
    public ExitCode call() throws IOException {
        if (pcre && list) {
            throw new CliException(ExitCode.USAGE, "choose one of -E and -L");
        }
        if (outIndent < 0 || outIndent > 16) {
            throw new CliException(ExitCode.USAGE, "--out-indent must be 0..16");
        }
        Outputter outputter;
        try {
            outputter = Outputter.named(out, outIndent);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        MasterConfig config = ConfigLoader.master(configDir);
        Duration wait = Duration.ofSeconds(timeout != null ? timeout : config.timeout());
        String tgtType = pcre ? "pcre" : list ? "list" : "glob";
        try (MasterConnection master = MasterConnection.open(config);
                LocalEventClient events = connectEvents(config);
                PrintStream results = resultStream()) {
            PublishRequest req = new PublishRequest(target, function, ArgParser.parse(args), tgtType,
                    System.getProperty("user.name"), "", Map.of());
            Map<String, Object> reply = master.call(req.toLoad(), Duration.ofSeconds(10));
            String jid = Wire.string(reply, "jid");
            Set<String> expected = new LinkedHashSet<>();
            Wire.optList(reply, "minions").forEach(m -> expected.add(String.valueOf(m)));
            if (expected.isEmpty()) {
                System.err.println("No minions matched the target. No command was sent, no jid was assigned.");
                return ExitCode.NO_RETURN;
            }
            if (async) {
                stdout.println("Executed command with job ID: " + jid);
                return ExitCode.OK;
            }
            if (verbose) {
                stdout.println("Executing job with jid " + jid);
                stdout.println("-------------------------------------------");
                stdout.println();
            } else if (showJid) {
                stdout.println("jid: " + jid);
            }
            boolean streaming = !staticOutput;
            Map<String, JobGatherer.Answer> answers = new JobGatherer(events).gather(jid, expected, wait, (id, a) -> {
                if (streaming) {
                    outputter.one(results, id, a.ret());
                }
            });
            return report(outputter, results, expected, answers);
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
            return new PrintStream(java.nio.file.Files.newOutputStream(outFile), true, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(ExitCode.USAGE, "cannot write --out-file " + outFile + ": " + e.getMessage());
        }
    }

    private ExitCode report(Outputter outputter, PrintStream results, Set<String> expected, Map<String, JobGatherer.Answer> answers) {
        List<String> missing = expected.stream().filter(id -> !answers.containsKey(id)).toList();
        Map<String, Object> missingShown = new LinkedHashMap<>();
        if (!hideTimeout) {
            missing.forEach(id -> missingShown.put(id, NO_RESPONSE));
        }
        if (staticOutput) {
            Map<String, Object> all = new LinkedHashMap<>();
            answers.forEach((id, a) -> all.put(id, a.ret()));
            all.putAll(missingShown);
            outputter.all(results, all);
        } else {
            missingShown.forEach((id, text) -> outputter.one(results, id, text));
        }
        int withErrors = (int) answers.values().stream().filter(a -> a.retcode() != 0).count();
        if (summary) {
            new JobSummary(expected.size(), answers.size(), missing, withErrors).print(stdout);
        }
        if (!missing.isEmpty()) {
            return ExitCode.NO_RETURN;
        }
        return withErrors > 0 ? ExitCode.MINION_ERROR : ExitCode.OK;
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
