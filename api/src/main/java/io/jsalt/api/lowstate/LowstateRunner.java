package io.jsalt.api.lowstate;

import io.jsalt.api.ApiException;
import io.jsalt.api.AuditLog;
import io.jsalt.api.auth.Credentials;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishRequest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one authorized lowstate chunk against the master, as salt-api's {@code NetapiClient.run}:
 * {@code local} (publish, then gather the returns), {@code local_async} (publish, answer the jid),
 * {@code runner} and {@code wheel}. Every chunk goes to the master with the user's token, never with root
 * rights: the master checks the function and the target (as it resolves it at publish time) against the
 * user's rights and refuses before anything is published; a refusal is a 401 as salt-api answers it.
 */
public final class LowstateRunner {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final String DENIED = "Authorization error occurred.";

    private static final List<String> CLIENTS = List.of("local", "local_async", "local_batch", "runner", "runner_async", "wheel",
            "wheel_async");

    /**
     * What salt-api yields element by element into {@code return} (a generator's answers, as {@code local_batch}'s
     * one {@code {minion: return}} per minion), rather than one element for the chunk.
     */
    public record Yielded(List<Object> items) {}

    private final MasterClient master;
    private final int defaultTimeout;
    private final List<String> enabledClients;

    /** @param enabledClients {@code netapi_enable_clients}: Salt 3006 runs no client the operator did not name */
    public LowstateRunner(MasterClient master, List<String> enabledClients) {
        this.master = master;
        this.defaultTimeout = master.config().timeout();
        this.enabledClients = List.copyOf(enabledClients);
    }

    public Object run(Lowstate low, Credentials token) {
        if (!CLIENTS.contains(low.client())) {
            throw ApiException.badRequest("Invalid client specified: '" + low.client()
                    + "' (jsalt-api serves local, local_async, local_batch, runner, runner_async, wheel and wheel_async)");
        }
        if (!enabledClients.contains(low.client())) {
            throw ApiException.badRequest("Client disabled: '" + low.client()
                    + "'. Add to 'netapi_enable_clients' master config option to enable.");
        }
        return switch (low.client()) {
            case "local" -> local(low, token, false);
            case "local_async" -> local(low, token, true);
            case "local_batch" -> localBatch(low, token);
            case "runner" -> runner(low, token);
            case "runner_async" -> runnerAsync(low, token);
            case "wheel" -> wheel(low, token);
            case "wheel_async" -> wheelAsync(low, token);
            default -> throw ApiException.badRequest("client '" + low.client()
                    + "' is not supported by jsalt-api yet (local, local_async, runner, wheel)");
        };
    }

    private Object local(Lowstate low, Credentials token, boolean async) {
        if (low.tgt() == null) {
            throw ApiException.badRequest("lowstate needs 'tgt' for client " + low.client());
        }
        List<Object> arg = withKwarg(low);
        try (LocalEventClient events = async ? null : master.events()) {
            Map<String, Object> reply = asUser(publishLoad(low.tgt(), low.tgtType(), low.fun(), arg, token), token, low);
            String jid = Wire.string(reply, "jid");
            List<String> minions = ids(reply.get("minions"));
            AuditLog.action(token.user(), token.eauth(), low.client(), low.fun(), low.tgt(), jid, "published");
            if (async) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("jid", jid);
                out.put("minions", minions);
                return out;
            }
            return gather(events, jid, minions, low);
        }
    }

    /** Salt's LocalClient packs keyword arguments as a trailing {@code {"__kwarg__": True, ...}}. */
    private static List<Object> withKwarg(Lowstate low) {
        List<Object> arg = new ArrayList<>(low.arg());
        if (!low.kwarg().isEmpty()) {
            Map<String, Object> kw = new LinkedHashMap<>(low.kwarg());
            kw.put("__kwarg__", true);
            arg.add(kw);
        }
        return arg;
    }

    /** A publish as the user: the credentials travel in the publish's kwargs, as Salt's LocalClient sends them. */
    private Map<String, Object> publishLoad(Object tgt, String tgtType, String fun, List<Object> arg, Credentials token) {
        Map<String, Object> load = new PublishRequest(tgt, fun, arg, tgtType, token.user(), "", token.proof()).toLoad();
        master.vouchFor(load, token.address());
        return load;
    }

    /**
     * salt-api's {@code local_batch}: the chunk's {@code batch} ({@code 3} or {@code 25%}; Salt's default
     * {@code 10%}; {@code batch_size} is read when {@code batch} is absent), each minion's return as one element.
     */
    private Object localBatch(Lowstate low, Credentials token) {
        if (low.tgt() == null) {
            throw ApiException.badRequest("lowstate needs 'tgt' for client " + low.client());
        }
        Object batch = low.extra().containsKey("batch") ? low.extra().get("batch") : low.extra().get("batch_size");
        LocalBatch.batchSize(batch, 1); // a malformed batch is a 400 before anything is published
        Duration timeout = Duration.ofSeconds(low.timeout() != null ? low.timeout() : defaultTimeout);
        LocalBatch run = new LocalBatch((tgt, tgtType, fun, arg) -> {
            Map<String, Object> reply = asUser(publishLoad(tgt, tgtType, fun, arg, token), token, low);
            String jid = Wire.string(reply, "jid");
            AuditLog.action(token.user(), token.eauth(), low.client(), fun, tgt, jid, "published");
            return new LocalBatch.Published(jid, ids(reply.get("minions")));
        }, timeout);
        try (LocalEventClient events = master.events()) {
            return new Yielded(run.run(events, low, withKwarg(low), batch));
        }
    }

    /** salt-api's {@code runner_async}: {@code {"tag": "salt/run/<jid>", "jid"}} at once; the return comes as an event. */
    private Object runnerAsync(Lowstate low, Credentials token) {
        Map<String, Object> load = runnerLoad(low, token);
        load.put("asynchronous", true);
        Map<String, Object> reply = asUser(load, token, low);
        AuditLog.action(token.user(), token.eauth(), "runner_async", low.fun(), null, Wire.string(reply, "jid"), "started");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tag", reply.get("tag"));
        out.put("jid", reply.get("jid"));
        return out;
    }

    /** One call with the user's token; the master's refusal is audited and answered as salt-api does. */
    private Map<String, Object> asUser(Map<String, Object> load, Credentials token, Lowstate low) {
        try {
            return master.callClear(load, CALL_TIMEOUT);
        } catch (ApiException e) {
            if (e.status() == 401) {
                AuditLog.action(token.user(), token.eauth(), low.client(), low.fun(), low.tgt(), null, "denied");
                // salt-api's words for a publish: the master's reason (function, target, empty set) is not told
                throw ApiException.unauthorized(low.client().startsWith("local") ? DENIED : e.getMessage());
            }
            throw e;
        }
    }

    /** Returns of {@code jid} until every targeted minion answered or the timeout passed (Salt's cmd). */
    private Map<String, Object> gather(LocalEventClient events, String jid, List<String> minions, Lowstate low) {
        Map<String, Object> returns = new LinkedHashMap<>();
        Instant deadline = Instant.now().plusSeconds(low.timeout() != null ? low.timeout() : defaultTimeout);
        String prefix = "salt/job/" + jid + "/ret/";
        try {
            while (returns.size() < minions.size()) {
                Duration left = Duration.between(Instant.now(), deadline);
                if (left.isNegative() || left.isZero()) {
                    break;
                }
                Optional<EventFrame> next = events.next(left);
                if (next.isEmpty() || !next.get().tag().startsWith(prefix)) {
                    continue;
                }
                Map<String, Object> data = next.get().data();
                String id = next.get().tag().substring(prefix.length());
                if (!minions.contains(id)) {
                    continue;
                }
                if (low.fullReturn()) {
                    Map<String, Object> full = new LinkedHashMap<>();
                    full.put("ret", data.get("return"));
                    full.put("retcode", data.getOrDefault("retcode", 0));
                    full.put("jid", jid);
                    returns.put(id, full);
                } else {
                    returns.put(id, data.get("return"));
                }
            }
        } catch (IOException e) {
            throw new ApiException(503, "Salt Master is not available: lost its event socket: " + e.getMessage());
        }
        return returns;
    }

    private Map<String, Object> runnerLoad(Lowstate low, Credentials token) {
        Map<String, Object> kwarg = new LinkedHashMap<>(low.extra());
        kwarg.putAll(low.kwarg());
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", low.fun());
        load.put("arg", low.arg());
        load.put("kwarg", kwarg);
        load.putAll(token.proof());
        master.vouchFor(load, token.address());
        return load;
    }

    private Object runner(Lowstate low, Credentials token) {
        Map<String, Object> reply = asUser(runnerLoad(low, token), token, low);
        if (Boolean.FALSE.equals(reply.get("success"))) {
            throw new ApiException(500, low.fun() + " failed on the master: " + reply.get("return"));
        }
        AuditLog.action(token.user(), token.eauth(), "runner", low.fun(), null, null, "ran");
        return reply.get("return");
    }

    /**
     * A wheel call as the user: the function's arguments are the chunk's other keys, or its {@code arg} and
     * {@code kwarg} when it has both, as Salt's wheel takes them (salt-api passes the chunk on as it is).
     */
    private Map<String, Object> wheelLoad(Lowstate low, Credentials token) {
        Map<String, Object> load = new LinkedHashMap<>(low.extra());
        if (low.givenArgs()) {
            load.put("arg", low.arg());
            load.put("kwarg", low.kwarg());
        }
        load.put("cmd", "wheel");
        load.put("fun", low.fun());
        load.putAll(token.proof());
        master.vouchFor(load, token.address());
        return load;
    }

    /**
     * salt-api's {@code wheel_async}: {@code {"tag": "salt/wheel/<jid>", "jid"}} at once; the call's start and
     * return come as the events {@code salt/wheel/<jid>/new} and {@code /ret}. The master checks the user's
     * {@code @wheel} rights before it answers, so a refusal is a 401 here (salt-api answers the tag and logs it).
     */
    private Object wheelAsync(Lowstate low, Credentials token) {
        Map<String, Object> load = wheelLoad(low, token);
        load.put("asynchronous", true);
        Map<String, Object> reply = asUser(load, token, low);
        AuditLog.action(token.user(), token.eauth(), "wheel_async", low.fun(), wheelTarget(low), Wire.string(reply, "jid"),
                "started");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tag", reply.get("tag"));
        out.put("jid", reply.get("jid"));
        return out;
    }

    /**
     * salt-api's wheel answer is the master's as it comes: {@code {"tag": "salt/wheel/<jid>", "data": {fun, jid, tag,
     * user, _stamp, return, success}}}; a function that failed is {@code success: False} with the reason, a 200 as
     * salt-api answers it.
     */
    private Object wheel(Lowstate low, Credentials token) {
        Map<String, Object> reply = asUser(wheelLoad(low, token), token, low);
        Object data = reply.get("data");
        String jid = data instanceof Map<?, ?> d && d.get("jid") != null ? String.valueOf(d.get("jid")) : null;
        boolean ran = data instanceof Map<?, ?> d && Boolean.TRUE.equals(d.get("success"));
        AuditLog.action(token.user(), token.eauth(), "wheel", low.fun(), wheelTarget(low), jid, ran ? "ran" : "failed");
        return reply;
    }

    /** What a wheel call names ({@code match}), for the audit line. */
    private static Object wheelTarget(Lowstate low) {
        return low.extra().containsKey("match") ? low.extra().get("match") : low.kwarg().get("match");
    }

    private static List<String> ids(Object value) {
        List<String> ids = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.forEach(id -> ids.add(String.valueOf(id)));
        }
        return ids;
    }
}
