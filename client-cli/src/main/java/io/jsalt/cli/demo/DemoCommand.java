package io.jsalt.cli.demo;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.jsalt.JsaltCommand;
import io.jsalt.cli.key.KeyCommand;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jsalt-demo [start|stop]}: a master and a few minions as separate processes in a sandbox folder,
 * keys accepted, and the first commands run, the way an operator would do it by hand.
 */
@Command(name = "jsalt-demo", mixinStandardHelpOptions = true, version = "jsalt-demo 0.1.0",
        description = "Start (or stop) a local master with minions in a sandbox folder and run a first job.")
public final class DemoCommand implements Callable<ExitCode> {
    private static final Duration STARTUP = Duration.ofSeconds(60);

    @Parameters(index = "0", arity = "0..1", defaultValue = "start", description = "start (default) or stop.")
    String action;

    @Option(names = "--dir", defaultValue = "sandbox", description = "The sandbox folder (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--minions", defaultValue = "3", description = "How many minions to start (default: ${DEFAULT-VALUE}).")
    int minions;

    @Option(names = "--examples", description = "A tree with states/ and pillar/ that the demo's master serves and "
            + "applies (default: examples/ beside the launchers' folder, when there is one).")
    Path examples;

    @Option(names = "--launcher-dir", description = "Where the bin/ launchers are: the daemons start with them (and their JVM options), and the commands printed work as typed.")
    Path launcherDir;

    private final PrintStream out;

    public DemoCommand(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new DemoCommand(System.out), System.err, argv));
    }

    @Override
    public ExitCode call() throws IOException, InterruptedException {
        Sandbox sandbox = new Sandbox(dir);
        DaemonProcesses daemons = new DaemonProcesses(sandbox, launcherDir);
        switch (action) {
            case "stop" -> {
                int n = daemons.stopAll(Duration.ofSeconds(15));
                out.println("Stopped " + n + " jsalt process(es) of " + sandbox.root());
                return ExitCode.OK;
            }
            case "start" -> {
                return start(sandbox, daemons);
            }
            default -> throw new CliException(ExitCode.USAGE, "unknown action '" + action + "' (start or stop)");
        }
    }

    private ExitCode start(Sandbox sandbox, DaemonProcesses daemons) throws IOException, InterruptedException {
        if (minions < 1 || minions > 50) {
            throw new CliException(ExitCode.USAGE, "--minions must be 1..50");
        }
        if (daemons.stopAll(Duration.ofSeconds(15)) > 0) {
            out.println("Stopped the demo that was already running in " + sandbox.root());
        }
        sandbox.wipe();
        int publishPort = Sandbox.freePort();
        int retPort = Sandbox.freePort();
        while (retPort == publishPort) {
            retPort = Sandbox.freePort();
        }
        sandbox.writeMasterConfig(publishPort, retPort);
        Path tree = examplesTree();
        if (tree != null) {
            sandbox.installExamples(tree);
        }
        MasterConfig config = ConfigLoader.master(sandbox.masterConfigDir());
        Files.deleteIfExists(ClientKey.file(config.cachedir(), System.getProperty("user.name")));
        out.println("Sandbox: " + sandbox.root());
        out.println("Starting jsalt-master (publish port " + publishPort + ", request port " + retPort + ")");
        daemons.start("master", "jsalt-master", "io.jsalt.cli.daemon.MasterDaemon", sandbox.masterConfigDir());
        waitFor("the master to listen", () -> MasterConnection.isListening(config)
                && Files.exists(ClientKey.file(config.cachedir(), System.getProperty("user.name"))));

        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= minions; i++) {
            String id = "minion-" + i;
            ids.add(id);
            sandbox.writeMinionConfig(id, publishPort, retPort);
            daemons.start(id, "jsalt-minion", "io.jsalt.cli.daemon.MinionDaemon", sandbox.minionConfigDir(id));
        }
        out.println("Started " + minions + " jsalt-minion process(es): " + String.join(", ", ids));

        KeyStore keys = new KeyStore(config.pkiDir());
        try (LocalEventClient events = LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(10))) {
            waitFor("the minions' keys to arrive", () -> new HashSet<>(keys.list(KeyState.PENDING)).containsAll(ids)
                    || new HashSet<>(keys.list(KeyState.ACCEPTED)).containsAll(ids));
            String c = sandbox.masterConfigDir().toString();
            runTool("jsalt-key -c " + c + " -A -y", new KeyCommand(out, System.in), "-c", c, "-A", "-y");
            awaitStarted(events, ids);
            int ping = runTool("jsalt -c " + c + " '*' test.ping", new JsaltCommand(out), "-c", c, "*", "test.ping");
            int run = runTool("jsalt -c " + c + " '*' cmd.run 'uname -a'", new JsaltCommand(out), "-c", c, "*", "cmd.run", "uname -a");
            int apply = tree == null ? 0 : runTool("jsalt -c " + c + " '*' state.apply --state-output=terse",
                    new JsaltCommand(out), "-c", c, "*", "state.apply", "--state-output=terse");
            if (ping != 0 || run != 0 || apply != 0) {
                throw new CliException(ExitCode.NO_RETURN, "the first jobs did not complete (see the logs in "
                        + sandbox.root().resolve("var/log/jsalt") + "); the processes are still running: jsalt-demo stop");
            }
        }
        String bin = launcherDir == null ? "" : launcherDir.toAbsolutePath().normalize() + "/";
        out.println();
        out.println("The master and minions keep running. Go on with, for example:");
        out.println("  " + bin + "jsalt -c " + sandbox.masterConfigDir() + " '*' grains.items");
        out.println("  " + bin + "jsalt-key -c " + sandbox.masterConfigDir() + " -L");
        if (tree != null) {
            out.println("  " + bin + "jsalt -c " + sandbox.masterConfigDir() + " '*' state.apply test=True   # the states in "
                    + sandbox.root().resolve("srv/jsalt") + " (copied from " + tree + ")");
        }
        out.println("Logs: " + sandbox.root().resolve("var/log/jsalt"));
        out.println("Stop them with: " + bin + "jsalt-demo stop" + ("sandbox".equals(dir.toString()) ? "" : " --dir " + sandbox.root()));
        return ExitCode.OK;
    }

    /** The examples tree to serve: --examples, else examples/ beside the launchers' folder; null when there is none. */
    private Path examplesTree() {
        if (examples != null) {
            if (!Files.isDirectory(examples.resolve("states"))) {
                throw new CliException(ExitCode.USAGE, "--examples " + examples + " has no states/ folder");
            }
            return examples.toAbsolutePath().normalize();
        }
        if (launcherDir == null) {
            return null;
        }
        Path beside = launcherDir.toAbsolutePath().normalize().resolveSibling("examples");
        return Files.isDirectory(beside.resolve("states")) ? beside : null;
    }

    /** Waits until every minion has announced itself on the bus (signed in and subscribed). */
    private void awaitStarted(LocalEventClient events, List<String> ids) throws IOException {
        Set<String> waiting = new HashSet<>(ids);
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            Optional<EventFrame> e = events.next(Duration.ofMillis(500));
            e.ifPresent(ev -> waiting.removeIf(id -> ev.tag().equals("salt/minion/" + id + "/start")));
        }
        if (!waiting.isEmpty()) {
            throw new CliException(ExitCode.NO_RETURN, "minion(s) did not sign in within " + STARTUP.toSeconds() + " s: " + waiting
                    + " (see the logs in " + dir.toAbsolutePath() + "/var/log/jsalt)");
        }
    }

    private int runTool(String shown, Callable<ExitCode> tool, String... args) {
        out.println();
        out.println("$ " + shown);
        return ToolRunner.run(tool, System.err, args);
    }

    private interface Check {
        boolean ok() throws IOException;
    }

    private void waitFor(String what, Check check) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new CliException(ExitCode.UNAVAILABLE, "timed out waiting for " + what + " (see the logs in "
                        + dir.toAbsolutePath() + "/var/log/jsalt)");
            }
            Thread.sleep(100); // polling files and a port: there is no event to wait on
        }
    }
}
