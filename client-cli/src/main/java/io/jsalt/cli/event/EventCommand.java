package io.jsalt.cli.event;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.output.Json;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jsalt-event [TAG]}: prints the master's events as they happen, like Salt's
 * {@code salt-run state.event}: one {@code tag<TAB>json} line per event, or with {@code --out json} one
 * {@code {"tag", "data"}} object per line.
 */
@Command(name = "jsalt-event", mixinStandardHelpOptions = true, version = "jsalt-event 0.1.0",
        description = "Stream the master's events (run as the master's user).")
public final class EventCommand implements Callable<ExitCode> {
    @Option(names = {"-c", "--config-dir"}, defaultValue = ConfigLoader.DEFAULT_DIR, description = "Folder holding the 'master' config file.")
    Path configDir;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TAG", description = "Only events whose tag matches (default: all).")
    String tag;

    @Option(names = "--match-type", defaultValue = "prefix", description = "How TAG matches: prefix (default), glob, regex.")
    String matchType;

    @Option(names = "--count", defaultValue = "0", description = "Stop after this many matching events (0: never).")
    int count;

    @Option(names = "--out", defaultValue = "text", description = "text (tag<TAB>json, Salt's state.event) or json (one object per line).")
    String out;

    @Option(names = "--pretty", description = "text: the data as indented JSON with sorted keys (state.event's pretty=True).")
    boolean pretty;

    private final PrintStream stdout;

    public EventCommand(PrintStream stdout) {
        this.stdout = stdout;
    }

    /**
     * What {@code jsalt-run state.event} runs: {@code tagGlob} matched as a glob, {@code count} 0 for no end.
     */
    public static EventCommand stateEvent(PrintStream stdout, Path configDir, String tagGlob, int count, boolean pretty) {
        EventCommand c = new EventCommand(stdout);
        c.configDir = configDir;
        c.tag = tagGlob;
        c.matchType = "glob";
        c.count = count;
        c.out = "text";
        c.pretty = pretty;
        return c;
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new EventCommand(System.out), System.err, argv));
    }

    @Override
    public ExitCode call() throws IOException {
        Predicate<String> matches = filter();
        if (!"text".equals(out) && !"json".equals(out)) {
            throw new CliException(ExitCode.USAGE, "--out must be text or json");
        }
        if (count < 0) {
            throw new CliException(ExitCode.USAGE, "--count must be 0 or more");
        }
        MasterConfig config = ConfigLoader.master(configDir);
        try (LocalEventClient events = connect(config)) {
            int printed = 0;
            while (count == 0 || printed < count) {
                Optional<EventFrame> next = events.next(Duration.ofSeconds(1));
                if (next.isPresent() && matches.test(next.get().tag())) {
                    print(next.get());
                    printed++;
                }
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master's event stream ended: " + e.getMessage());
        }
        return ExitCode.OK;
    }

    private Predicate<String> filter() {
        TagFilter type;
        try {
            type = TagFilter.valueOf(matchType.toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, "--match-type must be prefix, glob or regex");
        }
        try {
            return type.compile(tag);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
    }

    private void print(EventFrame e) {
        if ("json".equals(out)) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("tag", e.tag());
            line.put("data", e.data());
            stdout.println(Json.write(line, 0));
        } else {
            stdout.println(e.tag() + "\t" + (pretty ? Json.write(sortedKeys(e.data()), 4) : Json.write(e.data(), 0)));
        }
        stdout.flush();
    }

    /** Python's json.dumps(sort_keys=True) sorts every level. */
    private static Object sortedKeys(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new java.util.TreeMap<>();
            m.forEach((k, x) -> sorted.put(String.valueOf(k), sortedKeys(x)));
            return sorted;
        }
        if (v instanceof java.util.List<?> l) {
            return l.stream().map(EventCommand::sortedKeys).toList();
        }
        return v;
    }

    private static LocalEventClient connect(MasterConfig config) {
        try {
            return LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot read the master's events in " + config.sockDir()
                    + ": " + e.getMessage() + " (run as the master's user, with the master running)");
        }
    }
}
