package io.jsalt.cli.run;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.event.EventCommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code jsalt-run state.event [tagmatch] [count=N] [pretty=True]}: Salt's state.event runner, served by
 * {@code jsalt-event} here. As Salt's: tagmatch is a glob (default {@code *}), count -1 (default) never
 * stops, and count 0 stops after the first event like any positive count would after its last.
 */
record StateEvent(String tagmatch, int count, boolean pretty) {
    static final String FUNCTION = "state.event";
    private static final Set<String> KEYWORDS = Set.of("tagmatch", "count", "pretty", "quiet", "node");

    static StateEvent from(RunnerRequest request) {
        if (request.arg().size() > 2) {
            throw usage("takes at most tagmatch and count");
        }
        Map<String, Object> kw = request.kwarg();
        for (String k : kw.keySet()) {
            if (!KEYWORDS.contains(k)) {
                throw usage("got an unexpected keyword argument '" + k + "'");
            }
        }
        if (kw.containsKey("node") && !"master".equals(String.valueOf(kw.get("node")))) {
            throw usage("only node=master is served (a minion's bus is not reachable from here)");
        }
        Object tag = kw.containsKey("tagmatch") ? kw.get("tagmatch") : request.arg().isEmpty() ? "*" : request.arg().get(0);
        Object count = kw.containsKey("count") ? kw.get("count") : request.arg().size() > 1 ? request.arg().get(1) : -1L;
        if (!(count instanceof Number n)) {
            throw usage("count must be a number, got " + count);
        }
        Object pretty = kw.getOrDefault("pretty", false);
        if (!(pretty instanceof Boolean p)) {
            throw usage("pretty must be True or False, got " + pretty);
        }
        if (Boolean.TRUE.equals(kw.get("quiet"))) {
            throw usage("quiet=True would print nothing; use jsalt-event --count to wait for events");
        }
        return new StateEvent(String.valueOf(tag), n.intValue(), p);
    }

    /** The jsalt-event invocation that does the same. */
    EventCommand command(PrintStream stdout, Path configDir) {
        int events = count < 0 ? 0 : Math.max(count, 1);
        return EventCommand.stateEvent(stdout, configDir, tagmatch, events, pretty);
    }

    private static CliException usage(String why) {
        return new CliException(ExitCode.USAGE, FUNCTION + " " + why);
    }
}
