package io.jsalt.cli.run;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.output.Json;
import io.jsalt.client.TagPattern;
import io.jsalt.config.MasterConfig;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.event.EventFrame;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jsalt-run supervisor.watch [tgt=GLOB] [program=NAME] [count=N]}: every state change of a supervised
 * process in the fleet, one line each as it happens, from the master's event bus (the minions'
 * {@code jsalt/supervisor/<minion>/<process>/<STATE>} events), as {@code jsalt-event} reads it: run as the
 * master's user. {@code --out json}: one object per line. Changes before the start are not shown:
 * {@code supervisor.table} is the picture, this the film.
 */
record SupervisorWatch(Predicate<String> minions, String program, int count) {
    static final String FUNCTION = "supervisor.watch";
    private static final Set<String> KEYWORDS = Set.of("tgt", "program", "count");
    private static final Pattern TAG = Pattern.compile("jsalt/supervisor/([^/]+)/([^/]+)/([A-Z]+)");

    static SupervisorWatch from(RunnerRequest request) {
        if (!request.arg().isEmpty()) {
            throw usage("takes keyword arguments only: tgt=GLOB program=NAME count=N");
        }
        Map<String, Object> kw = request.kwarg();
        for (String k : kw.keySet()) {
            if (!KEYWORDS.contains(k)) {
                throw usage("got an unexpected keyword argument '" + k + "'");
            }
        }
        Object count = kw.getOrDefault("count", 0L);
        if (!(count instanceof Number n) || n.longValue() < 0) {
            throw usage("count must be a number >= 0 (0: never stop), got " + count);
        }
        Predicate<String> minions;
        try {
            minions = TagPattern.glob(String.valueOf(kw.getOrDefault("tgt", "*")))::matches;
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        Object program = kw.get("program");
        return new SupervisorWatch(minions, program == null ? null : String.valueOf(program), n.intValue());
    }

    ExitCode run(PrintStream stdout, Path configDir, boolean json) {
        MasterConfig config = ConfigLoader.master(configDir);
        LocalEventClient events;
        try {
            events = LocalEventClient.connect(config.sockDir(), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot read the master's events in " + config.sockDir()
                    + ": " + e.getMessage() + " (run as the master's user, with the master running)");
        }
        try (events) {
            int printed = 0;
            while (count == 0 || printed < count) {
                Optional<EventFrame> next = events.next(Duration.ofSeconds(1));
                if (next.isPresent() && print(stdout, next.get(), json)) {
                    printed++;
                }
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master's event stream ended: " + e.getMessage());
        }
        return ExitCode.OK;
    }

    /** Prints the event when it is a state change this watch shows; false when it is not. */
    boolean print(PrintStream stdout, EventFrame event, boolean json) {
        Matcher m = TAG.matcher(event.tag());
        if (!m.matches() || !minions.test(m.group(1))) {
            return false;
        }
        Map<String, Object> data = event.data();
        String group = String.valueOf(data.getOrDefault("group", m.group(2)));
        if (program != null && !program.equals(m.group(2)) && !program.equals(group)) {
            return false;
        }
        if (json) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("minion", m.group(1));
            line.put("process", m.group(2));
            line.putAll(data);
            stdout.println(Json.write(line, 0));
        } else {
            String shown = group.equals(m.group(2)) ? m.group(2) : group + ":" + m.group(2);
            Object since = data.get("since");
            Instant at = since instanceof Number n ? Instant.ofEpochMilli((long) (n.doubleValue() * 1000)) : Instant.now();
            stdout.println(String.format(Locale.ROOT, "%s %-20s %-24s %-9s %s", at.truncatedTo(ChronoUnit.SECONDS),
                    m.group(1), shown, m.group(3), data.getOrDefault("description", "")).stripTrailing());
        }
        stdout.flush();
        return true;
    }

    private static CliException usage(String why) {
        return new CliException(ExitCode.USAGE, FUNCTION + " " + why);
    }
}
