package io.jsalt.cli.call;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.VersionsReportOption;
import io.jsalt.cli.jsalt.ArgParser;
import io.jsalt.cli.output.Outputter;
import io.jsalt.cli.output.Palette;
import io.jsalt.cli.output.StateOutputOptions;
import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.files.RemoteMasterFiles;
import io.jsalt.minion.grains.GrainsReport;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.jobs.ProcRecords;
import io.jsalt.minion.modules.MinionModules;
import io.jsalt.minion.pillar.MinionPillar;
import io.jsalt.minion.pillar.StateRunPillar;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.api.MasterFiles;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jsalt-call [--local] <function> [arguments...]}: runs a module function on this minion host, in
 * this process, and prints its return under {@code local} (Salt's salt-call). Without {@code --local} it
 * signs in to the master with the minion's key first (so salt:// files can be fetched) and sends the
 * result there as a job of its own.
 */
@Command(name = "jsalt-call", mixinStandardHelpOptions = true, version = "jsalt-call 0.1.0",
        description = "Run a module function on this minion and print its return (as the minion's user, usually root).")
public final class CallCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(CallCommand.class);
    private static final String LOCAL = "local";
    /** Salt's jid format, %Y%m%d%H%M%S%f in UTC: the local jid of the proc record. */
    private static final DateTimeFormatter LOCAL_JID = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSSSSS");

    @Option(names = {"-c", "--config-dir"}, description = "Folder holding the 'minion' config file (default: ${DEFAULT-VALUE}).",
            defaultValue = ConfigLoader.DEFAULT_DIR)
    Path configDir;

    @Option(names = "--local", description = "Run without a master: nothing is sent, salt:// files are unavailable.")
    boolean local;

    @Option(names = "--out", description = "Output format: nested (the default; highstate for the returns of state functions), "
            + "highstate, json, yaml, txt, raw, quiet.")
    String out;

    @picocli.CommandLine.Mixin
    StateOutputOptions stateOutput = new StateOutputOptions();

    @Option(names = "--out-indent", description = "Spaces per level for --out json (default: ${DEFAULT-VALUE}; 0: one line).",
            defaultValue = "4")
    int outIndent;

    @Option(names = "--retcode-passthrough", description = "Exit with the function's retcode (default: 0, or 1 when it failed).")
    boolean retcodePassthrough;

    @Option(names = "--show-jid", description = "Print the jid the master gave the return, before the output.")
    boolean showJid;

    @Option(names = {"-g", "--grains"}, description = "Print this minion's grains (grains.items).")
    boolean grains;

    @Mixin
    VersionsReportOption versionsReport = new VersionsReportOption();

    @Parameters(index = "0", arity = "0..1", paramLabel = "<function>", description = "module.function, e.g. test.ping.")
    String function;

    @Parameters(index = "1..*", paramLabel = "<arg>", description = "Arguments; key=value words are keyword arguments.")
    List<String> args = new ArrayList<>();

    private final PrintStream stdout;

    public CallCommand(PrintStream stdout) {
        this.stdout = stdout;
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new CallCommand(System.out), System.err, argv));
    }

    @Override
    public Integer call() {
        if (versionsReport.printIfRequested(stdout)) {
            return ExitCode.OK.code();
        }
        String fun = grains ? "grains.items" : function;
        if (fun == null) {
            throw new CliException(ExitCode.USAGE, "name a function to run, e.g. jsalt-call test.ping");
        }
        if (grains && function != null) {
            throw new CliException(ExitCode.USAGE, "-g prints the grains: it takes no function");
        }
        if (outIndent < 0 || outIndent > 16) {
            throw new CliException(ExitCode.USAGE, "--out-indent must be 0..16");
        }
        Outputter outputter;
        try {
            stateOutput.check();
            outputter = out == null ? Outputter.named("nested", outIndent) : "highstate".equals(out) ? null
                    : Outputter.named(out, outIndent);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        List<Object> wireArgs = ArgParser.parse(args);
        MinionConfig config = ConfigLoader.minion(configDir);
        // the minion's state_output/state_verbose, under the flags (as salt-call reads its minion config)
        Outputter highstate = stateOutput.outputter(Palette.NONE, config.stateOutput());
        if (outputter == null) {
            outputter = highstate;
        }
        LocalCall.Outcome outcome;
        if (local) {
            try (ModuleRegistry registry = MinionModules.build(config, MasterFiles.NONE)) {
                outcome = run(config, registry, fun, wireArgs);
            }
        } else {
            outcome = runAndReturn(config, fun, wireArgs);
        }
        // a state run is shown with the highstate outputter unless the user chose one (Salt's rule)
        (out == null && "highstate".equals(outcome.out()) ? highstate : outputter).one(stdout, LOCAL, outcome.ret());
        if (retcodePassthrough) {
            return outcome.retcode();
        }
        return outcome.success() ? ExitCode.OK.code() : ExitCode.MINION_ERROR.code();
    }

    private LocalCall.Outcome runAndReturn(MinionConfig config, String fun, List<Object> wireArgs) {
        KeyPair key = minionKey(config);
        try (CallerSession master = CallerSession.open(config, key)) {
            // as a salt-call's pillar request does: the master learns this minion's grains for targeting, and the
            // call gets the pillar the master compiles (a state run asks for its own again, as Salt's does)
            MinionPillar pillar = new MinionPillar();
            MinionGrains grains = MinionGrains.of(config.id(), config.grainsFile(), config.grains());
            GrainsReport report = new GrainsReport(config.id(), grains, master.channel(), key.getPrivate(), pillar::set);
            report.send();
            MasterFiles files = new RemoteMasterFiles(master.channel()::send, config.cachedir().resolve("files"));
            LocalCall.Outcome outcome;
            StateRunPillar stateRuns = new StateRunPillar(report::fetch, pillar);
            try (ModuleRegistry registry = MinionModules.build(config, files, pillar, stateRuns)) {
                outcome = run(config, registry, fun, wireArgs);
            }
            Map<String, Object> load = ReturnToMaster.load(config.id(), fun, wireArgs, outcome, System.getProperty("user.name"),
                    config.minionSignMessages() ? key.getPrivate() : null);
            ReturnToMaster.Delivery delivery = ReturnToMaster.send(master.channel(), load);
            if (!delivery.taken()) {
                log.warn("{}", delivery.problem());
            } else {
                delivery.jid().ifPresent(jid -> log.info("the master filed this call as job {}", jid));
                if (showJid) {
                    stdout.println("jid: " + delivery.jid().orElse("(not given by the master)"));
                }
            }
            return outcome;
        }
    }

    /**
     * Runs the function with a proc record in {@code cachedir/proc} while it runs, as salt-call writes one
     * (tgt "salt-call"), for tools that read a minion's proc folder. The minion daemon's own
     * saltutil.running lists only the jobs it runs itself.
     */
    private static LocalCall.Outcome run(MinionConfig config, ModuleRegistry registry, String fun, List<Object> wireArgs) {
        if (!registry.has(fun)) {
            // salt-call says so on stderr and runs nothing, sends nothing
            throw new CliException(ExitCode.MINION_ERROR, "'" + fun + "' is not available.");
        }
        String jid = LOCAL_JID.format(LocalDateTime.now(ZoneOffset.UTC));
        ProcRecords proc = new ProcRecords(config.cachedir().resolve("proc"));
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("jid", jid);
        record.put("fun", fun);
        record.put("arg", wireArgs);
        record.put("tgt", "salt-call");
        record.put("tgt_type", "glob");
        record.put("user", System.getProperty("user.name"));
        record.put("pid", ProcessHandle.current().pid());
        record.put("child_pids", List.of());
        record.put("start_time", java.time.Instant.now().toString());
        boolean written = proc.write(jid, record);
        try {
            return LocalCall.run(registry, fun, wireArgs);
        } finally {
            if (written) {
                proc.remove(jid);
            }
        }
    }

    private static KeyPair minionKey(MinionConfig config) {
        try {
            return RsaKeys.loadOrCreate(config.pkiDir(), "minion");
        } catch (CryptoException | java.io.UncheckedIOException e) {
            throw new CliException(ExitCode.NO_PERMISSION, "cannot read this minion's key in " + config.pkiDir() + ": "
                    + e.getMessage() + " (run as the minion's user)");
        }
    }
}
