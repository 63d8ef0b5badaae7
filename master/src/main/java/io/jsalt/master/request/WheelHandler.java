package io.jsalt.master.request;

import io.jsalt.master.cluster.ClusterException;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.runner.InvalidRunnerArgumentsException;
import io.jsalt.master.runner.Parameter;
import io.jsalt.master.runner.RunnerArgs;
import io.jsalt.master.runner.RunnerCalls;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.wheel.WheelFunctions;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code wheel} from a local client or an eauth user ({@link EauthGuard} checks {@code @wheel} first): one of the
 * {@link WheelFunctions}, run as Salt's master runs it, with the same events.
 *
 * <p>Salt's {@code ClearFuncs.wheel} gives the call a jid, fires {@code salt/wheel/<jid>/new} with
 * {@code {fun: "wheel.<fun>", jid, tag, user}}, runs the function through its WheelClient, which fires a pair of
 * its own under a second jid ({@code new} with {@code fun_args}, {@code ret} with {@code return} and
 * {@code success}), then fires {@code salt/wheel/<jid>/ret} and answers {@code {"tag", "data"}}, data being that
 * last event's. A failure (an unknown function, bad arguments, an error of the function) is
 * {@code success: False} with the reason as {@code return}, not an error of the request. jsalt fires the same four
 * events in the same order; where Salt's second pair says {@code user: "UNKNOWN"}, jsalt names the caller.
 *
 * <p>With {@code asynchronous: True} (salt-api's {@code wheel_async}, which in Salt runs the call from the API's
 * own process) the answer is {@code {"tag": "salt/wheel/<jid>", "jid"}} at once, jid being the second pair's, as
 * Salt's. Both jids are remembered with their caller so the master shows the events to their caller on
 * {@code GET /events} ({@link EventAccess}). Asynchronous calls run on {@link #ASYNC_THREADS} threads of their own,
 * at most {@link #ASYNC_QUEUE} waiting; past that the call is refused.
 */
public final class WheelHandler implements ClearCommand, AutoCloseable {
    static final int ASYNC_THREADS = 2;
    static final int ASYNC_QUEUE = 64;

    private static final Logger log = LoggerFactory.getLogger(WheelHandler.class);
    /** Load keys that are the request's, not the wheel function's arguments (the rest are, as Salt passes them). */
    private static final List<String> NOT_ARGUMENTS = List.of("cmd", "fun", "key", "user", "asynchronous", "arg", "kwarg");
    /** Salt's CLIENT_INTERNAL_KEYWORDS: ignored when the function has no parameter of that name. */
    private static final Set<String> INTERNAL = Set.of("client", "cmd", "eauth", "fun", "kwarg", "match", "token", "__jid__",
            "__tag__", "__user__", "username", "password", "full_return", "print_event", SourceAddress.FIELD);

    private final ClientKey clientKey;
    private final WheelFunctions functions;
    private final Jids jids;
    private final EventBus events;
    private final RunnerCalls calls;
    private final ThreadPoolExecutor async = new ThreadPoolExecutor(ASYNC_THREADS, ASYNC_THREADS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(ASYNC_QUEUE), r -> {
                Thread t = new Thread(r, "wheel-async");
                t.setDaemon(true);
                return t;
            });

    /** @param calls where calls are remembered by jid, for {@link EventAccess} */
    public WheelHandler(ClientKey clientKey, WheelFunctions functions, Jids jids, EventBus events, RunnerCalls calls) {
        this.clientKey = clientKey;
        this.functions = functions;
        this.jids = jids;
        this.events = events;
        this.calls = calls;
        async.allowCoreThreadTimeOut(true);
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        if (!clientKey.matches(load.get("key"))) {
            log.warn("wheel call refused: bad client key");
            return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
        }
        String fun = Wire.string(load, "fun");
        String user = Wire.optString(load, "user", "root");
        String outerJid = jids.next();
        String innerJid = jids.next();
        Prepared prepared = prepare(fun, load);
        if (prepared.refused() == null) {
            Map<String, Object> given = new LinkedHashMap<>(load);
            List.of("cmd", "fun", "key", "user", "asynchronous").forEach(given::remove);
            RunnerCalls.Call call = RunnerCalls.Call.of(user, fun, List.of(), given); // arguments kept up to 1 KiB
            calls.record(outerJid, call);
            calls.record(innerJid, call);
        }
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("fun", "wheel." + fun);
        outer.put("jid", outerJid);
        outer.put("tag", "salt/wheel/" + outerJid);
        outer.put("user", user);
        events.fire("salt/wheel/" + outerJid + "/new", outer); // before the call can finish and fire its return
        if (!Boolean.TRUE.equals(load.get("asynchronous"))) {
            return answer(finish(outer, innerJid, fun, user, prepared));
        }
        try {
            async.execute(() -> finish(outer, innerJid, fun, user, prepared));
        } catch (RejectedExecutionException e) {
            log.warn("wheel {} refused: {} asynchronous wheel calls are already waiting", Printable.quoted(fun), ASYNC_QUEUE);
            String refused = "too many asynchronous wheel calls waiting: try again later";
            events.fire("salt/wheel/" + outerJid + "/ret", finished(outer, new Outcome(refused, false)));
            return SaltPack.pack(RequestDispatcher.error(refused));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tag", "salt/wheel/" + innerJid);
        body.put("jid", innerJid);
        return clear(body);
    }

    /** The second pair of events around the function itself, then the master's return event; the outer data. */
    private Map<String, Object> finish(Map<String, Object> outer, String innerJid, String fun, String user, Prepared prepared) {
        String tag = "salt/wheel/" + innerJid;
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("fun", "wheel." + fun);
        inner.put("jid", innerJid);
        inner.put("user", user);
        Outcome outcome;
        if (prepared.refused() != null) {
            outcome = prepared.refused(); // Salt fires no "new" for a call it could not bind
        } else {
            inner.put("fun_args", funArgs(prepared.function(), prepared.args()));
            events.fire(tag + "/new", inner);
            outcome = run(fun, prepared);
        }
        Map<String, Object> innerRet = finished(inner, outcome);
        if (!outcome.success()) {
            innerRet.put("retcode", 1);
        }
        events.fire(tag + "/ret", innerRet);
        Map<String, Object> data = finished(outer, outcome);
        events.fire(outer.get("tag") + "/ret", data);
        data.put("_stamp", LocalDateTime.now(ZoneOffset.UTC).toString()); // Salt's answer carries the event's stamp
        return data;
    }

    private static Map<String, Object> finished(Map<String, Object> started, Outcome outcome) {
        Map<String, Object> data = new LinkedHashMap<>(started);
        data.put("return", outcome.value());
        data.put("success", outcome.success());
        return data;
    }

    /** Asynchronous calls still running are abandoned (their threads are daemons); none is started after this. */
    @Override
    public void close() {
        async.shutdownNow();
    }

    /** A wheel call's outcome: its return, or what went wrong, as the caller is told. */
    private record Outcome(Object value, boolean success) {}

    /** A call ready to run (its function and bound arguments), or refused with Salt's answer. */
    private record Prepared(RunnerFunction function, RunnerArgs args, Outcome refused) {}

    private Prepared prepare(String fun, Map<String, Object> load) {
        Optional<RunnerFunction> found = functions.find(fun);
        if (found.isEmpty()) {
            log.warn("wheel function refused: {}", Printable.quoted(fun));
            return new Prepared(null, null, failed(fun, "'" + fun + "' is not available."));
        }
        RunnerFunction function = found.get();
        try {
            return new Prepared(function, bind(function, load), null);
        } catch (InvalidRunnerArgumentsException | WireException e) {
            log.info("wheel {} refused its arguments: {}", fun, Printable.reason(e));
            return new Prepared(function, null, failed(fun, function.signature() + ": " + e.getMessage()));
        }
    }

    /**
     * Salt's wheel takes its arguments as the load's own keys ({@code match}, {@code path}, ...); a load holding
     * both {@code arg} and {@code kwarg} gives them so instead. Salt's internal keys are dropped unless the
     * function has a parameter of that name; any other unknown key is refused, as Salt's format_call refuses it.
     */
    private static RunnerArgs bind(RunnerFunction function, Map<String, Object> load) {
        if (load.get("arg") instanceof List<?> && load.get("kwarg") instanceof Map<?, ?>) {
            return function.signature().bind(Wire.optList(load, "arg"), Wire.map(load, "kwarg"));
        }
        Set<String> names = new java.util.HashSet<>();
        function.signature().parameters().forEach(p -> names.add(p.name()));
        Map<String, Object> kwargs = new LinkedHashMap<>(load);
        NOT_ARGUMENTS.stream().filter(k -> !names.contains(k)).forEach(kwargs::remove);
        kwargs.keySet().removeIf(k -> INTERNAL.contains(k) && !names.contains(k));
        return function.signature().bind(List.of(), kwargs);
    }

    private Outcome run(String fun, Prepared prepared) {
        try {
            Object value = prepared.function().body().call(prepared.args());
            log.info("wheel {} done", fun);
            return new Outcome(value, true);
        } catch (RunnerException | ClusterException | WireException | IllegalArgumentException e) {
            // a refusal of the function, or a master of a cluster whose database is away: it says why
            log.info("wheel {} failed: {}", Printable.quoted(fun), Printable.reason(e));
            return failed(fun, e.getMessage());
        } catch (RuntimeException e) {
            // a broken store or a bug costs this call, never the MWorker or the thread pool
            log.warn("wheel {} failed", Printable.quoted(fun), e);
            return failed(fun, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** Salt's words for a wheel call that failed. */
    private static Outcome failed(String fun, String why) {
        return new Outcome("Exception occurred in wheel " + fun + ": " + why, false);
    }

    /** The arguments as Salt's WheelClient lists them: the required ones in order, then the others as one map. */
    private static List<Object> funArgs(RunnerFunction function, RunnerArgs args) {
        List<Object> out = new ArrayList<>();
        Map<String, Object> optional = new LinkedHashMap<>();
        for (Parameter p : function.signature().parameters()) {
            if (p.required()) {
                out.add(args.value(p.name()));
            } else {
                optional.put(p.name(), args.value(p.name()));
            }
        }
        if (!optional.isEmpty()) {
            out.add(optional);
        }
        return out;
    }

    /** Salt's answer to a wheel call: {@code {"tag", "data"}}. */
    private static byte[] answer(Map<String, Object> data) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tag", data.get("tag"));
        body.put("data", data);
        return clear(body);
    }

    private static byte[] clear(Map<String, Object> body) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }
}
