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

    @Option(names = "--out", description = "Output format: nested (default), json, yaml.", defaultValue = "nested")
    String out;

    @Option(names = {"-s", "--static"}, description = "Print all answers at once, after gathering.")
    boolean staticOutput;

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
        Outputter outputter;
        try {
            outputter = Outputter.named(out);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        MasterConfig config = ConfigLoader.master(configDir);
        Duration wait = Duration.ofSeconds(timeout != null ? timeout : config.timeout());
        String tgtType = pcre ? "pcre" : list ? "list" : "glob";
        try (MasterConnection master = MasterConnection.open(config);
                LocalEventClient events = connectEvents(config)) {
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
            boolean streaming = !staticOutput;
            Map<String, JobGatherer.Answer> answers = new JobGatherer(events).gather(jid, expected, wait, (id, a) -> {
                if (streaming) {
                    outputter.one(stdout, id, a.ret());
                }
            });
            return report(outputter, expected, answers);
        }
    }

    private ExitCode report(Outputter outputter, Set<String> expected, Map<String, JobGatherer.Answer> answers) {
        Map<String, Object> missing = new LinkedHashMap<>();
        for (String id : expected) {
            if (!answers.containsKey(id)) {
                missing.put(id, NO_RESPONSE);
            }
        }
        if (staticOutput) {
            Map<String, Object> all = new LinkedHashMap<>();
            answers.forEach((id, a) -> all.put(id, a.ret()));
            all.putAll(missing);
            outputter.all(stdout, all);
        } else {
            missing.forEach((id, text) -> outputter.one(stdout, id, text));
        }
        if (!missing.isEmpty()) {
            return ExitCode.NO_RETURN;
        }
        boolean anyFailed = answers.values().stream().anyMatch(a -> a.retcode() != 0);
        return anyFailed ? ExitCode.MINION_ERROR : ExitCode.OK;
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
