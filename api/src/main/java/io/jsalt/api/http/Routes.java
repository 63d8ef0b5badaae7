package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.AuditLog;
import io.jsalt.api.auth.Credentials;
import io.jsalt.api.auth.LoginThrottle;
import io.jsalt.api.auth.Logins;
import io.jsalt.api.auth.Token;
import io.jsalt.api.lowstate.Lowstate;
import io.jsalt.api.lowstate.LowstateRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * salt-api's URL map (rest_cherrypy's {@code Root}, {@code Login}, {@code Logout}, {@code Minions},
 * {@code Jobs}, {@code Keys}) over plain values: an {@link Exchange} in, a {@link Reply} out. HTTP itself
 * (Jetty, bodies, headers) stays in {@link ApiHandler}.
 */
final class Routes {
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    /** 10 failed logins per address per minute; salt-api has no such limit. */
    static final int MAX_LOGIN_FAILURES = 10;

    private final Logins logins;
    private final LowstateRunner runner;
    private final LoginThrottle throttle;
    private final Webhooks hooks;
    private final String hookUrl;
    private final ApiStats stats;

    /** @param hookUrl {@code rest_cherrypy:webhook_url} (salt-api's default {@code /hook}) */
    Routes(Logins logins, LowstateRunner runner, LoginThrottle throttle, Webhooks hooks, String hookUrl, ApiStats stats) {
        this.stats = stats;
        this.logins = logins;
        this.runner = runner;
        this.throttle = throttle;
        this.hooks = hooks;
        this.hookUrl = hookUrl.replaceAll("/+$", "");
    }

    /**
     * One request: method, path, the X-Auth-Token header (or null), the parsed body (or null), the caller's
     * address, the raw body (or null) and the request headers (for webhooks).
     */
    record Exchange(String method, String path, String token, Object body, String remote, String raw, Map<String, String> headers) {}

    /** A body that is not JSON: salt-api's key tarball. */
    record Download(String contentType, byte[] bytes) {}

    /** One answer: status, JSON value (or a {@link Download}), extra headers. */
    record Reply(int status, Object body, Map<String, String> headers) {
        static Reply ok(Object body) {
            return new Reply(200, body, Map.of());
        }
    }

    Reply handle(Exchange ex) {
        String trimmed = ex.path().replaceAll("/+$", "");
        if (ex.method().equals("POST") && (trimmed.equals(hookUrl) || trimmed.startsWith(hookUrl + "/"))) {
            return hooks.fire(trimmed.substring(hookUrl.length()).replaceFirst("^/+", ""), ex);
        }
        String[] parts = ex.path().replaceAll("/+$", "").split("/", -1);
        String first = parts.length > 1 ? parts[1] : "";
        String id = parts.length > 2 ? parts[2] : null;
        if (parts.length > 3) {
            throw new ApiException(404, "The path '" + ex.path() + "' was not found.");
        }
        return switch (ex.method() + " " + first) {
            case "GET " -> Reply.ok(Map.of("return", "Welcome", "clients",
                    List.of("local", "local_async", "local_batch", "runner", "runner_async", "wheel", "wheel_async")));
            case "POST " -> Reply.ok(Map.of("return", lowstate(ex, null)));
            case "POST login" -> login(ex);
            case "POST run" -> run(ex);
            case "POST logout" -> logout(ex);
            case "GET minions" -> Reply.ok(Map.of("return", lowstate(ex, List.of(chunk("local", id == null ? "*" : id, "grains.items")))));
            case "POST minions" -> minionsAsync(ex);
            case "GET jobs" -> jobs(ex, id);
            case "GET keys" -> keys(ex, id);
            case "POST keys" -> genKeys(ex);
            case "GET stats" -> {
                authenticated(ex.token()); // as salt-api: statistics for logged-in users only
                yield Reply.ok(stats.snapshot());
            }
            default -> throw new ApiException(ex.method().equals("GET") || ex.method().equals("POST") ? 404 : 405,
                    "The path '" + ex.path() + "' was not found.");
        };
    }

    private Reply login(Exchange ex) {
        Map<String, Object> creds = firstChunk(ex.body());
        String user = str(creds.get("username"));
        String eauth = str(creds.get("eauth"));
        if (!throttle.allows(ex.remote())) {
            AuditLog.login(user, eauth, false, ex.remote());
            throw new ApiException(429, "Too many failed logins from this address: try again later");
        }
        Token token;
        try {
            token = logins.login(eauth, user, str(creds.get("password")), ex.remote());
        } catch (ApiException e) {
            throttle.failed(ex.remote());
            AuditLog.login(user, eauth, false, ex.remote());
            throw e;
        }
        AuditLog.login(user, eauth, true, ex.remote());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("token", token.token());
        out.put("expire", token.expire());
        out.put("start", token.start());
        out.put("user", token.user());
        out.put("eauth", token.eauth());
        // salt-api answers {} (not []) when the user has no rights
        out.put("perms", token.perms().isEmpty() ? Map.of() : sorted(token.perms().entries()));
        return new Reply(200, Map.of("return", List.of(out)), Map.of("X-Auth-Token", token.token()));
    }

    private Reply logout(Exchange ex) {
        Token token = authenticated(ex.token());
        logins.logout(token);
        AuditLog.logout(token.user(), token.eauth());
        return Reply.ok(Map.of("return", "Your token has been cleared"));
    }

    private Reply minionsAsync(Exchange ex) {
        List<Object> jobs = lowstate(ex, null, "local_async");
        List<Object> links = new ArrayList<>();
        for (Object job : jobs) {
            if (job instanceof Map<?, ?> m && m.get("jid") != null) {
                links.add(Map.of("href", "/jobs/" + m.get("jid")));
            }
        }
        return new Reply(202, Map.of("return", jobs, "_links", Map.of("jobs", links)), Map.of());
    }

    private Reply jobs(Exchange ex, String jid) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("client", "runner");
        chunk.put("fun", jid == null ? "jobs.list_jobs" : "jobs.list_job");
        if (jid != null) {
            chunk.put("jid", jid);
        }
        Object info = lowstate(ex, List.of(chunk)).get(0);
        if (jid == null) {
            return Reply.ok(Map.of("return", List.of(info)));
        }
        Map<String, Object> returns = new LinkedHashMap<>();
        if (info instanceof Map<?, ?> m && m.get("Result") instanceof Map<?, ?> result) {
            result.forEach((minion, entry) -> returns.put(String.valueOf(minion), entry instanceof Map<?, ?> e ? e.get("return") : null));
        }
        return Reply.ok(Map.of("info", List.of(info), "return", List.of(returns)));
    }

    private Reply keys(Exchange ex, String id) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("client", "wheel");
        chunk.put("fun", id == null ? "key.list_all" : "key.finger");
        if (id != null) {
            chunk.put("match", id);
        }
        Object answer = lowstate(ex, List.of(chunk)).get(0);
        Object ret = answer instanceof Map<?, ?> m && m.get("data") instanceof Map<?, ?> d ? d.get("return") : Map.of();
        return Reply.ok(Map.of("return", ret));
    }

    /**
     * salt-api's {@code POST /keys}: {@code key.gen_accept} for {@code mid} (with {@code keysize},
     * {@code force}), run as the chunk's inline credentials or the header's token, answered as a tar of
     * {@code minion.pem} and {@code minion.pub}. An id already accepted (without force) is a 409 rather
     * than salt-api's tar of two empty files.
     */
    private Reply genKeys(Exchange ex) {
        Map<String, Object> form = firstChunk(ex.body());
        String mid = str(form.get("mid"));
        if (mid == null || mid.isBlank()) {
            throw ApiException.badRequest("POST /keys needs 'mid', the minion id");
        }
        Map<String, Object> chunk = new LinkedHashMap<>(form);
        chunk.remove("mid");
        chunk.put("client", "wheel");
        chunk.put("fun", "key.gen_accept");
        chunk.put("id_", mid);
        boolean inline = chunk.get("username") != null || chunk.get("token") != null || ex.token() == null;
        // inline passwords tried here count against the same per-address limit as /login and /run
        if (inline && !throttle.allows(ex.remote())) {
            throw new ApiException(429, "Too many failed logins from this address: try again later");
        }
        Object answer;
        try {
            answer = runner.run(Lowstate.of(chunk), credentials(ex, chunk, inline));
        } catch (ApiException e) {
            if (inline && e.status() == 401) {
                throttle.failed(ex.remote());
            }
            throw e;
        }
        Map<?, ?> data = answer instanceof Map<?, ?> m && m.get("data") instanceof Map<?, ?> d ? d : Map.of();
        if (Boolean.FALSE.equals(data.get("success"))) {
            // the master refused what it was given (an invalid id, a keysize out of bounds): the wheel's reason
            throw ApiException.badRequest(String.valueOf(data.get("return")));
        }
        Object ret = data.get("return");
        if (!(ret instanceof Map<?, ?> keys) || !(keys.get("pub") instanceof String pub) || !(keys.get("priv") instanceof String priv)) {
            throw new ApiException(409, "the key of " + mid + " is already accepted (force=true replaces it)");
        }
        byte[] tar = new TarFile().add("minion.pub", pub).add("minion.pem", priv).bytes();
        return new Reply(200, new Download("application/x-tar", tar),
                Map.of("Content-Disposition", "attachment; filename=\"saltkeys-" + mid + ".tar\"", "Cache-Control", "no-cache"));
    }

    private List<Object> lowstate(Exchange ex, List<Map<String, Object>> fixed) {
        return lowstate(ex, fixed, null);
    }

    /** salt-api's exec_lowstate: every chunk runs with the caller's token; a chunk's own hex token also works. */
    private List<Object> lowstate(Exchange ex, List<Map<String, Object>> fixed, String client) {
        return lowstate(ex, fixed, client, false);
    }

    /**
     * salt-api's {@code POST /run}: the same lowstate, without a login: each chunk carries its own
     * {@code username}/{@code password}/{@code eauth} (or {@code token}), which the master checks.
     */
    private Reply run(Exchange ex) {
        // passwords tried here count against the same per-address limit as /login
        if (!throttle.allows(ex.remote())) {
            throw new ApiException(429, "Too many failed logins from this address: try again later");
        }
        try {
            return Reply.ok(Map.of("return", lowstate(ex, null, null, true)));
        } catch (ApiException e) {
            if (e.status() == 401) {
                throttle.failed(ex.remote());
            }
            throw e;
        }
    }

    /** The chunk's inline credentials (only for /run), else the header's token, else the chunk's own token. */
    private Credentials credentials(Exchange ex, Map<String, Object> chunk, boolean inline) {
        if (inline && chunk.get("token") == null) {
            String eauth = str(chunk.get("eauth"));
            String user = str(chunk.get("username"));
            String password = str(chunk.get("password"));
            if (eauth == null || user == null || password == null) {
                throw ApiException.unauthorized("No authentication credentials given");
            }
            return Credentials.inline(eauth, user, password, ex.remote());
        }
        return Credentials.of(ex.token() != null && !inline ? authenticated(ex.token()) : chunkToken(chunk.get("token")));
    }

    private List<Object> lowstate(Exchange ex, List<Map<String, Object>> fixed, String client, boolean inline) {
        List<?> chunks = fixed != null ? fixed : asList(ex.body());
        List<Object> results = new ArrayList<>();
        for (Object c : chunks) {
            if (!(c instanceof Map<?, ?> raw)) {
                throw ApiException.badRequest("Lowstates must be a list of mappings");
            }
            Map<String, Object> chunk = new LinkedHashMap<>();
            raw.forEach((k, v) -> chunk.put(String.valueOf(k), v));
            if (client != null) {
                chunk.put("client", client);
            }
            Object result = runner.run(Lowstate.of(chunk), credentials(ex, chunk, inline));
            if (result instanceof LowstateRunner.Yielded yielded) {
                results.addAll(yielded.items()); // salt-api: "yield from" a generator's answers
            } else {
                results.add(result);
            }
        }
        return results;
    }

    /** The header's token: 401 when missing, unknown or expired (salt-api finds no session for it). */
    private Token authenticated(String value) {
        return logins.find(value).orElseThrow(() -> ApiException.unauthorized("No permission -- see authorization schemes"));
    }

    /** A chunk's own token: salt-api refuses one that is not hex before looking it up. */
    private Token chunkToken(Object value) {
        if (value != null && !(value instanceof String s && HEX.matcher(s).matches())) {
            throw ApiException.unauthorized("Invalid token");
        }
        return authenticated((String) value);
    }

    /** salt.netapi.sorted_permissions: the strings sorted and de-duplicated, then the mappings. */
    private static List<Object> sorted(List<Object> perms) {
        List<Object> strings = perms.stream().filter(String.class::isInstance).distinct().sorted().collect(java.util.stream.Collectors.toList());
        perms.stream().filter(p -> !(p instanceof String)).distinct().forEach(strings::add);
        return strings;
    }

    private static Map<String, Object> chunk(String client, String tgt, String fun) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("client", client);
        chunk.put("tgt", tgt);
        chunk.put("fun", fun);
        return chunk;
    }

    private static List<?> asList(Object body) {
        if (body instanceof List<?> l) {
            return l;
        }
        throw ApiException.badRequest("Lowstates must be a list");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> firstChunk(Object body) {
        Object first = body instanceof List<?> l && !l.isEmpty() ? l.get(0) : body;
        return first instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static String str(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
