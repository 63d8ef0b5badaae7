package io.jsalt.master.request;

import io.jsalt.master.cluster.ClusterException;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.jobs.Jids;
import io.jsalt.master.runner.RunnerCalls;
import io.jsalt.transport.codec.Printable;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code wheel} from a local client, limited to the key functions ({@code key.accept}, {@code key.reject},
 * {@code key.delete}, {@code key.list_all}, {@code key.finger}, {@code key.gen_accept}), so that {@code jsalt-key} changes keys
 * through the running master, which rotates the session key and fires the events.
 *
 * <p>With {@code asynchronous: True} in the load (salt-api's {@code wheel_async}) the answer is
 * {@code {"tag": "salt/wheel/<jid>", "jid"}} at once, and the call's start and end go out as Salt's master fires
 * them for a wheel call: {@code salt/wheel/<jid>/new} with {@code {"fun": "wheel.<fun>", "jid", "tag", "user"}},
 * then {@code salt/wheel/<jid>/ret} with {@code return} and {@code success} added. The call is remembered by jid
 * (who, which function, which arguments) so that the master can show those events to their caller on
 * {@code GET /events} ({@link EventAccess}). It runs on one of {@link #ASYNC_THREADS} threads of its own, at most
 * {@link #ASYNC_QUEUE} waiting; past that the call is refused.
 */
public final class WheelHandler implements ClearCommand, AutoCloseable {
    static final int ASYNC_THREADS = 2;
    static final int ASYNC_QUEUE = 64;

    private static final Logger log = LoggerFactory.getLogger(WheelHandler.class);
    /** Load keys that are the request's, not the wheel function's arguments (the rest are, as Salt passes them). */
    private static final List<String> NOT_ARGUMENTS = List.of("cmd", "fun", "key", "user", "asynchronous");

    private final ClientKey clientKey;
    private final KeyAdmin admin;
    private final Jids jids;
    private final EventBus events;
    private final RunnerCalls calls;
    private final ThreadPoolExecutor async = new ThreadPoolExecutor(ASYNC_THREADS, ASYNC_THREADS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(ASYNC_QUEUE), r -> {
                Thread t = new Thread(r, "wheel-async");
                t.setDaemon(true);
                return t;
            });

    /** A wheel without a bus of its own to fire on (jsalt-key's tests, the fuzzer): asynchronous calls' events go nowhere. */
    public WheelHandler(ClientKey clientKey, KeyAdmin admin) {
        this(clientKey, admin, new Jids(), new EventBus(), new RunnerCalls());
    }

    /** @param calls where asynchronous calls are remembered by jid, for {@link EventAccess} */
    public WheelHandler(ClientKey clientKey, KeyAdmin admin, Jids jids, EventBus events, RunnerCalls calls) {
        this.clientKey = clientKey;
        this.admin = admin;
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
        if (Boolean.TRUE.equals(load.get("asynchronous"))) {
            return startAsync(load);
        }
        return answer(run(load));
    }

    /** salt-api's wheel_async: the jid and tag now, the call's start and return on the event bus. */
    private byte[] startAsync(Map<String, Object> load) {
        String fun = Wire.string(load, "fun");
        String user = Wire.optString(load, "user", "root");
        String jid = jids.next();
        String tag = "salt/wheel/" + jid;
        Map<String, Object> arguments = new LinkedHashMap<>(load);
        NOT_ARGUMENTS.forEach(arguments::remove);
        calls.record(jid, RunnerCalls.Call.of(user, fun, List.of(), arguments)); // arguments kept up to 1 KiB, as runner calls
        Map<String, Object> started = new LinkedHashMap<>();
        started.put("fun", "wheel." + fun);
        started.put("jid", jid);
        started.put("tag", tag);
        started.put("user", user);
        events.fire(tag + "/new", started); // before the call can finish and fire its return
        try {
            async.execute(() -> finish(tag, started, load));
        } catch (RejectedExecutionException e) {
            log.warn("wheel {} refused: {} asynchronous wheel calls are already waiting", Printable.quoted(fun), ASYNC_QUEUE);
            String refused = "too many asynchronous wheel calls waiting: try again later";
            events.fire(tag + "/ret", finished(started, new Result(refused, false)));
            return SaltPack.pack(RequestDispatcher.error(refused));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tag", tag);
        body.put("jid", jid);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }

    private void finish(String tag, Map<String, Object> started, Map<String, Object> load) {
        Result result;
        try {
            result = run(load);
        } catch (RuntimeException e) {
            // bad arguments or a bug cost this call, never the thread pool (Salt's wording for a wheel exception)
            log.warn("wheel {} failed", Printable.quoted(String.valueOf(load.get("fun"))), e);
            result = new Result("Exception occurred in wheel " + load.get("fun") + ": " + e.getClass().getSimpleName() + ": "
                    + e.getMessage(), false);
        }
        events.fire(tag + "/ret", finished(started, result));
    }

    private static Map<String, Object> finished(Map<String, Object> started, Result result) {
        Map<String, Object> data = new LinkedHashMap<>(started);
        data.put("return", result.value());
        data.put("success", result.success());
        return data;
    }

    /** Asynchronous calls still running are abandoned (their threads are daemons); none is started after this. */
    @Override
    public void close() {
        async.shutdownNow();
    }

    /** A wheel call's outcome: its return, or the error a client is told. */
    private record Result(Object value, boolean success) {}

    private static byte[] answer(Result result) {
        if (!result.success()) {
            return SaltPack.pack(RequestDispatcher.error(String.valueOf(result.value())));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("return", result.value());
        body.put("success", true);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }

    private Result run(Map<String, Object> load) {
        String fun = Wire.string(load, "fun");
        String match = Wire.optString(load, "match", "*");
        boolean rejected = Wire.bool(load, "include_rejected", false);
        boolean accepted = Wire.bool(load, "include_accepted", false);
        boolean denied = Wire.bool(load, "include_denied", false);
        Object result;
        try {
            result = call(fun, match, rejected, accepted, denied, load);
        } catch (ClusterException e) {
            // a master of a cluster whose database is away changes no key; it says why
            log.warn("wheel {} failed: {}", Printable.quoted(fun), e.getMessage());
            return new Result(e.getMessage(), false);
        }
        if (result == null) {
            log.warn("wheel function refused: {}", Printable.quoted(fun));
            return new Result("'" + fun + "' is not available.", false);
        }
        return new Result(result, true);
    }

    private Object call(String fun, String match, boolean rejected, boolean accepted, boolean denied, Map<String, Object> load) {
        return switch (fun) {
            case "key.accept" -> admin.accept(match, rejected, denied);
            case "key.reject" -> admin.reject(match, accepted, denied);
            case "key.delete" -> admin.delete(match);
            case "key.list_all" -> admin.listAll();
            case "key.finger" -> admin.finger(match);
            // from salt-api's form, keysize and force arrive as text
            case "key.gen_accept" -> admin.genAccept(Wire.string(load, "id_"),
                    Integer.parseInt(String.valueOf(load.getOrDefault("keysize", 2048))),
                    Boolean.parseBoolean(String.valueOf(load.getOrDefault("force", false))));
            default -> null;
        };
    }
}
