package io.jsalt.cli.jsalt;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.MasterConnection;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MasterLink} over a running master: publish and runner calls as clear requests with the client key,
 * events from the master's local event socket (connected before the first publish, so no return is lost to
 * the publish round trip).
 */
final class LiveMasterLink implements MasterLink {
    private static final Logger log = LoggerFactory.getLogger(LiveMasterLink.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final MasterConnection master;
    private final LocalEventClient events;
    private final String user;

    LiveMasterLink(MasterConnection master, LocalEventClient events, String user) {
        this.master = master;
        this.events = events;
        this.user = user;
    }

    @Override
    public Published publish(JobSpec job) {
        PublishRequest req = new PublishRequest(job.tgt(), job.fun(), job.arg(), job.tgtType(), user, "", Map.of());
        Map<String, Object> reply;
        try {
            reply = master.call(req.toLoad(), CALL_TIMEOUT);
        } catch (CliException e) {
            throw badTarget(e.getMessage()) ? new CliException(ExitCode.USAGE, e.getMessage()) : e;
        }
        return new Published(Wire.string(reply, "jid"), ids(reply.get("minions")), ids(reply.get("missing")),
                ids(reply.get("undecided")));
    }

    @Override
    public Optional<EventFrame> nextEvent(Duration timeout) throws IOException {
        return events.next(timeout);
    }

    @Override
    public Map<String, Answer> storedReturns(String jid) {
        Map<String, Answer> stored = new LinkedHashMap<>();
        try {
            if (runner("jobs.list_job", List.of(jid)) instanceof Map<?, ?> job && job.get("Result") instanceof Map<?, ?> result) {
                result.forEach((id, entry) -> {
                    if (entry instanceof Map<?, ?> m && m.containsKey("return")) {
                        stored.put(String.valueOf(id), Answer.of(m));
                    }
                });
            }
        } catch (CliException e) {
            log.debug("the job cache cannot say which minions returned {}: {}", jid, e.getMessage());
        }
        return stored;
    }

    @Override
    public Optional<Set<String>> present() {
        try {
            Object present = runner("manage.present", List.of());
            return present instanceof List<?> l ? Optional.of(new LinkedHashSet<>(ids(l))) : Optional.empty();
        } catch (CliException e) {
            log.debug("the master cannot say which minions are connected: {}", e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public TargetPreview preview(Object tgt, String tgtType) {
        Map<String, Object> kwarg = new LinkedHashMap<>();
        kwarg.put("tgt_type", tgtType);
        Object resolved;
        try {
            resolved = runner("target.preview", List.of(tgt), kwarg);
        } catch (CliException e) {
            if (e.exitCode() != ExitCode.SOFTWARE) {
                throw e;
            }
            // the runner exists and said no: the resolver refused the target, with a message that says why
            throw new CliException(ExitCode.USAGE, "invalid target: " + e.getMessage());
        }
        if (!(resolved instanceof Map<?, ?> m)) {
            throw new CliException(ExitCode.SOFTWARE, "unreadable answer from the master's target.preview");
        }
        return new TargetPreview(ids(m.get("minions")), ids(m.get("undecided")), ids(m.get("missing")));
    }

    private Object runner(String fun, List<Object> arg) {
        return runner(fun, arg, Map.of());
    }

    /** Runs a runner function on the master (C3); a failure is a CliException carrying the runner's own message. */
    private Object runner(String fun, List<Object> arg, Map<String, Object> kwarg) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("kwarg", kwarg);
        load.put("user", user);
        Map<String, Object> reply = master.call(load, CALL_TIMEOUT);
        if (Boolean.FALSE.equals(reply.get("success"))) {
            String why = String.valueOf(reply.get("return"));
            throw new CliException(badTarget(why) ? ExitCode.USAGE : ExitCode.SOFTWARE, fun + " failed on the master: " + why);
        }
        return reply.get("return");
    }

    /** A target the master cannot read is the operator's mistake (a usage error), not a refusal. */
    private static boolean badTarget(String message) {
        return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("invalid target");
    }

    private static List<String> ids(Object value) {
        List<String> ids = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.forEach(id -> ids.add(String.valueOf(id)));
        }
        return ids;
    }
}
