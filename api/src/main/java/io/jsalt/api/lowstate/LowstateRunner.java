package io.jsalt.api.lowstate;

import io.jsalt.api.ApiException;
import io.jsalt.api.AuditLog;
import io.jsalt.api.auth.Token;
import io.jsalt.master.events.LocalEventClient;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.PublishRequest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one authorized lowstate chunk against the master, as salt-api's {@code NetapiClient.run}:
 * {@code local} (publish, then gather the returns), {@code local_async} (publish, answer the jid),
 * {@code runner} and {@code wheel}. Every chunk is checked against the token's rights BEFORE anything is
 * sent: a function or a target outside them, or a target that matches no minion, is a 401 as salt-api
 * answers an AuthorizationError; nothing is published.
 */
public final class LowstateRunner {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final String DENIED = "Authorization error occurred.";

    private static final List<String> CLIENTS = List.of("local", "local_async", "runner", "wheel");

    private final MasterClient master;
    private final int defaultTimeout;
    private final List<String> enabledClients;

    /** @param enabledClients {@code netapi_enable_clients}: Salt 3006 runs no client the operator did not name */
    public LowstateRunner(MasterClient master, List<String> enabledClients) {
        this.master = master;
        this.defaultTimeout = master.config().timeout();
        this.enabledClients = List.copyOf(enabledClients);
    }

    public Object run(Lowstate low, Token token) {
        if (!CLIENTS.contains(low.client())) {
            throw ApiException.badRequest("Invalid client specified: '" + low.client()
                    + "' (jsalt-api serves local, local_async, runner and wheel so far)");
        }
        if (!enabledClients.contains(low.client())) {
            throw ApiException.badRequest("Client disabled: '" + low.client()
                    + "'. Add to 'netapi_enable_clients' master config option to enable.");
        }
        return switch (low.client()) {
            case "local" -> local(low, token, false);
            case "local_async" -> local(low, token, true);
            case "runner" -> runner(low, token);
            case "wheel" -> wheel(low, token);
            default -> throw ApiException.badRequest("client '" + low.client()
                    + "' is not supported by jsalt-api yet (local, local_async, runner, wheel)");
        };
    }

    private Object local(Lowstate low, Token token, boolean async) {
        if (low.tgt() == null) {
            throw ApiException.badRequest("lowstate needs 'tgt' for client " + low.client());
        }
        Set<String> targeted = preview(low.tgt(), low.tgtType());
        if (!token.perms().allowsPublish(low.fun(), targeted, this::preview)) {
            AuditLog.action(token.user(), token.eauth(), low.client(), low.fun(), low.tgt(), null, "denied");
            throw ApiException.unauthorized(DENIED);
        }
        List<Object> arg = new ArrayList<>(low.arg());
        if (!low.kwarg().isEmpty()) {
            // Salt's LocalClient packs keyword arguments as a trailing {"__kwarg__": True, ...}
            Map<String, Object> kw = new LinkedHashMap<>(low.kwarg());
            kw.put("__kwarg__", true);
            arg.add(kw);
        }
        PublishRequest req = new PublishRequest(low.tgt(), low.fun(), arg, low.tgtType(), token.user(), "", Map.of());
        try (LocalEventClient events = async ? null : master.events()) {
            Map<String, Object> reply = master.call(req.toLoad(), CALL_TIMEOUT);
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

    private Object runner(Lowstate low, Token token) {
        if (!token.perms().allowsSpecial("runner", low.fun())) {
            AuditLog.action(token.user(), token.eauth(), "runner", low.fun(), null, null, "denied");
            throw ApiException.unauthorized(specialDenied(token));
        }
        Map<String, Object> kwarg = new LinkedHashMap<>(low.extra());
        kwarg.putAll(low.kwarg());
        Object result = callRunner(low.fun(), low.arg(), kwarg, token.user());
        AuditLog.action(token.user(), token.eauth(), "runner", low.fun(), null, null, "ran");
        return result;
    }

    /** salt-api's wheel answer: {tag, data: {fun, user, return, success}}; only the key functions exist. */
    private Object wheel(Lowstate low, Token token) {
        if (!token.perms().allowsSpecial("wheel", low.fun())) {
            AuditLog.action(token.user(), token.eauth(), "wheel", low.fun(), null, null, "denied");
            throw ApiException.unauthorized(specialDenied(token));
        }
        Map<String, Object> load = new LinkedHashMap<>(low.extra());
        load.put("cmd", "wheel");
        load.put("fun", low.fun());
        Map<String, Object> reply = master.call(load, CALL_TIMEOUT);
        AuditLog.action(token.user(), token.eauth(), "wheel", low.fun(), low.extra().get("match"), null, "ran");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("fun", "wheel." + low.fun());
        data.put("user", token.user());
        data.put("return", reply.containsKey("return") ? reply.get("return") : reply);
        data.put("success", true);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tag", "salt/wheel/" + low.fun());
        out.put("data", data);
        return out;
    }

    /** Salt's runner and wheel clients word a refusal so (their check runs with the token, not the publish) */
    private static String specialDenied(Token token) {
        return "Authentication failure of type \"token\" occurred for user " + token.user() + ".";
    }

    /** The accepted minions a target reaches now (the master's target.preview runner); a bad target is a 400. */
    Set<String> preview(Object tgt, String tgtType) {
        Map<String, Object> kwarg = new LinkedHashMap<>();
        kwarg.put("tgt_type", tgtType);
        Object resolved;
        try {
            resolved = callRunner("target.preview", List.of(tgt), kwarg, "");
        } catch (ApiException e) {
            throw e.status() == 500 ? ApiException.badRequest("invalid target: " + e.getMessage()) : e;
        }
        if (!(resolved instanceof Map<?, ?> m)) {
            throw new ApiException(500, "unreadable answer from the master's target.preview");
        }
        return new LinkedHashSet<>(ids(m.get("minions")));
    }

    private Object callRunner(String fun, List<Object> arg, Map<String, Object> kwarg, String user) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "runner");
        load.put("fun", fun);
        load.put("arg", arg);
        load.put("kwarg", kwarg);
        load.put("user", user);
        Map<String, Object> reply = master.call(load, CALL_TIMEOUT);
        if (Boolean.FALSE.equals(reply.get("success"))) {
            throw new ApiException(500, fun + " failed on the master: " + reply.get("return"));
        }
        return reply.get("return");
    }

    private static List<String> ids(Object value) {
        List<String> ids = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.forEach(id -> ids.add(String.valueOf(id)));
        }
        return ids;
    }
}
