package io.jsalt.master.runner;

import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.request.ClearCommand;
import io.jsalt.master.request.ClientKey;
import io.jsalt.master.request.RequestDispatcher;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code runner} from a local client ({@code {"cmd": "runner", "fun", "arg", "kwarg", "key", "user"}}):
 * authenticate the client key as {@code publish} does, give the call a jid, fire
 * {@code salt/run/<jid>/new}, run the function in this MWorker (a function that asks minions waits at most
 * its timeout), fire {@code salt/run/<jid>/ret} and answer
 * {@code {"enc": "clear", "load": {"jid", "tag", "fun", "return", "success"}}}. Salt runs runners in a
 * separate process and answers at once; jsalt's client waits for the return instead, unless the load says
 * {@code asynchronous: True} (salt-api's {@code runner_async}): then the answer is {@code {"jid", "tag"}} at once
 * and the call runs on one of {@link #ASYNC_THREADS} threads of its own (at most {@link #ASYNC_QUEUE} waiting;
 * past that the call is refused), its return only on the event bus.
 */
public final class RunnerCommand implements ClearCommand, AutoCloseable {
    static final int ASYNC_THREADS = 4;
    static final int ASYNC_QUEUE = 64;

    private static final Logger log = LoggerFactory.getLogger(RunnerCommand.class);

    private final ClientKey clientKey;
    private final RunnerRegistry registry;
    private final Jids jids;
    private final EventBus events;
    private final RunnerCalls calls;
    private final java.util.concurrent.ThreadPoolExecutor async = new java.util.concurrent.ThreadPoolExecutor(ASYNC_THREADS,
            ASYNC_THREADS, 30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(ASYNC_QUEUE), r -> {
                Thread t = new Thread(r, "runner-async");
                t.setDaemon(true);
                return t;
            });

    public RunnerCommand(ClientKey clientKey, RunnerRegistry registry, Jids jids, EventBus events, RunnerCalls calls) {
        this.clientKey = clientKey;
        this.registry = registry;
        this.jids = jids;
        this.events = events;
        this.calls = calls;
        async.allowCoreThreadTimeOut(true);
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        if (!clientKey.matches(load.get("key"))) {
            log.warn("runner call refused: bad client key");
            return SaltPack.pack(RequestDispatcher.error("Authentication error occurred."));
        }
        String fun = Wire.string(load, "fun");
        List<Object> arg = Wire.optList(load, "arg");
        Map<String, Object> kwarg = load.get("kwarg") == null ? Map.of() : Wire.map(load, "kwarg");
        String user = Wire.optString(load, "user", "root");
        String jid = jids.next();
        String tag = "salt/run/" + jid;
        Prepared prepared = prepare(fun, arg, kwarg);
        if (prepared.refused() == null) {
            calls.record(jid, RunnerCalls.Call.of(user, fun, arg, kwarg)); // a refused call has no events worth showing its user
        }

        Map<String, Object> started = new LinkedHashMap<>();
        started.put("fun", "runner." + fun);
        started.put("fun_args", funArgs(arg, kwarg));
        started.put("jid", jid);
        started.put("user", user);

        Map<String, Object> body = new LinkedHashMap<>();
        if (Boolean.TRUE.equals(load.get("asynchronous"))) {
            events.fire(tag + "/new", started); // before the call can finish and fire its return
            try {
                async.execute(() -> finish(tag, started, fun, prepared));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                log.warn("runner {} refused: {} asynchronous runner calls are already waiting", fun, ASYNC_QUEUE);
                String refused = "too many asynchronous runner calls waiting: try again later";
                Map<String, Object> finished = new LinkedHashMap<>(started);
                finished.put("return", refused);
                finished.put("success", false);
                events.fire(tag + "/ret", finished);
                return SaltPack.pack(RequestDispatcher.error(refused));
            }
            body.put("tag", tag); // salt-api's runner_async answer
            body.put("jid", jid);
        } else {
            events.fire(tag + "/new", started);
            Outcome outcome = finish(tag, started, fun, prepared);
            body.put("jid", jid);
            body.put("tag", tag);
            body.put("fun", fun);
            body.put("return", outcome.value());
            body.put("success", outcome.success());
        }
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }

    /** Runs the call and fires {@code salt/run/<jid>/ret}. */
    private Outcome finish(String tag, Map<String, Object> started, String fun, Prepared prepared) {
        Outcome outcome = prepared.refused() != null ? prepared.refused() : run(fun, prepared.function(), prepared.args());
        Map<String, Object> finished = new LinkedHashMap<>(started);
        finished.put("return", outcome.value());
        finished.put("success", outcome.success());
        events.fire(tag + "/ret", finished);
        return outcome;
    }

    /** Asynchronous calls still running are abandoned (their threads are daemons); none is started after this. */
    @Override
    public void close() {
        async.shutdownNow();
    }

    private record Outcome(Object value, boolean success) {}

    /** A call ready to run (its function and bound arguments), or refused with Salt's answer. */
    private record Prepared(RunnerFunction function, RunnerArgs args, Outcome refused) {}

    private Prepared prepare(String fun, List<Object> arg, Map<String, Object> kwarg) {
        Optional<RunnerFunction> found = registry.find(fun);
        if (found.isEmpty()) {
            log.warn("runner function refused: {}", Printable.quoted(fun));
            return new Prepared(null, null, new Outcome("'" + fun + "' is not available.", false)); // Salt's wording
        }
        RunnerFunction function = found.get();
        try {
            return new Prepared(function, ArgumentBinder.bind(function.signature(), arg, kwarg), null);
        } catch (InvalidRunnerArgumentsException e) {
            log.info("runner {} refused its arguments: {}", fun, Printable.reason(e));
            return new Prepared(function, null, new Outcome(function.signature() + ": " + e.getMessage(), false));
        }
    }

    private Outcome run(String fun, RunnerFunction function, RunnerArgs args) {
        try {
            Object value = function.body().call(args);
            log.info("runner {} done", fun);
            return new Outcome(value, true);
        } catch (RunnerException | WireException | io.jsalt.transport.target.InvalidTargetException e) {
            log.info("runner {} failed: {}", fun, Printable.reason(e));
            return new Outcome(e.getMessage(), false);
        } catch (RuntimeException e) {
            // a broken store or a bug must cost this call, never the MWorker
            log.warn("runner {} failed", fun, e);
            return new Outcome("Exception occurred in runner " + fun + ": " + e, false);
        }
    }

    /** The call's arguments as Salt lists them in runner events: positional, then the keywords as one map. */
    private static List<Object> funArgs(List<Object> arg, Map<String, Object> kwarg) {
        if (kwarg.isEmpty()) {
            return arg;
        }
        List<Object> all = new java.util.ArrayList<>(arg);
        all.add(kwarg);
        return all;
    }
}
