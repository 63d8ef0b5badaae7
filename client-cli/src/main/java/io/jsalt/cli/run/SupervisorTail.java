package io.jsalt.cli.run;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.MasterConnection;
import io.jsalt.config.MasterConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code jsalt-run supervisor.tail <minion> <program> -f [lines=N] [seconds=N]}: follows a process's stdout log
 * from the master, as {@code tail -f} does. Each step is the master's {@code supervisor.follow} runner, which runs
 * the minion's {@code supervisor.follow} as a job over the minion's authenticated channel: what the log gained
 * after the last offset, at most 64 KiB, the minion waiting up to {@value #WAIT} s for some and then gathering
 * for up to a second (so an idle log costs one small job every {@value #WAIT} s, a busy one a job a second, and new
 * output shows within about a second, as with {@code tail -f}). Nothing runs on the minion
 * between steps: Ctrl-C ends the following at once, and the minion's step in flight ends by itself. When the minion
 * is not connected, or does not answer {@value #MISSES} steps in a row, the following stops with an error.
 */
record SupervisorTail(String minion, String program, int lines, long seconds) {
    static final String FUNCTION = "supervisor.tail";
    private static final Set<String> KEYWORDS = Set.of("minion", "program", "lines", "seconds", "follow", "timeout");
    /**
     * Seconds a minion waits for output before it answers an empty step: each step is a job in the master's job
     * cache, so a quiet log costs one every {@value} s.
     */
    static final int WAIT = 25;
    private static final int MISSES = 3;

    static SupervisorTail from(RunnerRequest request) {
        Map<String, Object> kw = request.kwarg();
        for (String k : kw.keySet()) {
            if (!KEYWORDS.contains(k)) {
                throw usage("got an unexpected keyword argument '" + k + "'");
            }
        }
        List<Object> args = new ArrayList<>(request.arg());
        Object minion = args.isEmpty() ? kw.get("minion") : args.remove(0);
        Object program = args.isEmpty() ? kw.get("program") : args.remove(0);
        if (minion == null || program == null || !args.isEmpty()) {
            throw usage("takes a minion id and a program: supervisor.tail <minion> <program> -f [lines=N] [seconds=N]");
        }
        return new SupervisorTail(String.valueOf(minion), String.valueOf(program), whole(kw, "lines", 10, 100_000),
                whole(kw, "seconds", 0, Long.MAX_VALUE));
    }

    private static int whole(Map<String, Object> kw, String key, int dflt, int max) {
        return (int) whole(kw, key, (long) dflt, (long) max);
    }

    private static long whole(Map<String, Object> kw, String key, long dflt, long max) {
        Object v = kw.getOrDefault(key, dflt);
        if (!(v instanceof Number n) || n.longValue() < 0 || n.longValue() > max || n.doubleValue() != n.longValue()) {
            throw usage(key + " must be a whole number 0.." + max + ", got " + v);
        }
        return n.longValue();
    }

    /** Prints the last lines, then what the log gains, until Ctrl-C, {@code seconds}, or the minion goes away. */
    ExitCode run(PrintStream stdout, MasterConfig config, String user) {
        Instant until = seconds > 0 ? Instant.now().plusSeconds(seconds) : null;
        try (MasterConnection master = MasterConnection.open(config)) {
            Map<?, ?> chunk = step(master, config, user, null, 0);
            long offset = print(stdout, chunk);
            int misses = 0;
            while (until == null || Instant.now().isBefore(until)) {
                int wait = until == null ? WAIT
                        : (int) Math.max(0, Math.min(WAIT, Duration.between(Instant.now(), until).toSeconds()));
                try {
                    chunk = step(master, config, user, offset, wait);
                } catch (NoAnswer e) {
                    if (++misses >= MISSES) {
                        throw new CliException(ExitCode.UNAVAILABLE, FUNCTION + ": " + e.getMessage() + " " + misses
                                + " times in a row: following stopped");
                    }
                    continue;
                }
                misses = 0;
                offset = print(stdout, chunk);
            }
        }
        return ExitCode.OK;
    }

    private static long print(PrintStream stdout, Map<?, ?> chunk) {
        if (Boolean.TRUE.equals(chunk.get("rotated"))) {
            stdout.println("==> log rotated <==");
        }
        stdout.print(chunk.get("data") instanceof String s ? s : "");
        stdout.flush();
        return chunk.get("offset") instanceof Number n ? n.longValue() : 0;
    }

    private Map<?, ?> step(MasterConnection master, MasterConfig config, String user, Long offset, int wait) {
        Map<String, Object> kwarg = new LinkedHashMap<>();
        kwarg.put("lines", lines);
        kwarg.put("wait", wait);
        if (offset != null) {
            kwarg.put("offset", offset);
        }
        RunnerRequest request = new RunnerRequest("supervisor.follow", List.of(minion, program), kwarg, user);
        RunnerReply reply = RunnerReply.fromLoad(master.call(request.toLoad(),
                Duration.ofSeconds(wait + Math.min(config.timeout(), 60) + 15)));
        if (reply.success() && reply.ret() instanceof Map<?, ?> m) {
            return m;
        }
        String message = String.valueOf(reply.ret());
        if (message.endsWith(" did not answer")) {
            throw new NoAnswer(message);
        }
        throw new CliException(ExitCode.MINION_ERROR, FUNCTION + ": " + message);
    }

    private static final class NoAnswer extends RuntimeException {
        NoAnswer(String message) {
            super(message, null, false, false);
        }
    }

    private static CliException usage(String why) {
        return new CliException(ExitCode.USAGE, FUNCTION + " -f " + why);
    }
}
