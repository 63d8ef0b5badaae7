package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.api.AuditLog;
import io.jsalt.api.auth.Logins;
import io.jsalt.api.auth.Token;
import io.jsalt.api.lowstate.MasterClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * salt-api's {@code POST /hook/...}: the request becomes the event {@code salt/netapi/hook/<path>} on the
 * master's bus with {@code {"body": raw body, "post": parsed body, "headers": request headers}}, answered
 * {@code {"success": true}}. A live token is needed unless {@code webhook_disable_auth: True} (for callers
 * that cannot log in, e.g. a Git forge); the credentials themselves never go into the event
 * ({@code X-Auth-Token}, {@code Cookie} and {@code Authorization} are left out of {@code headers}, where
 * salt-api keeps them). The master fires only under {@code salt/netapi/hook/}.
 */
final class Webhooks {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final List<String> SECRET_HEADERS = List.of("x-auth-token", "cookie", "authorization");

    private final Logins logins;
    private final MasterClient master;
    private final boolean disableAuth;

    Webhooks(Logins logins, MasterClient master, boolean disableAuth) {
        this.logins = logins;
        this.master = master;
        this.disableAuth = disableAuth;
    }

    Routes.Reply fire(String path, Routes.Exchange ex) {
        String who = "(no login)";
        if (!disableAuth) {
            Token token = logins.find(ex.token()).orElseThrow(() -> ApiException.unauthorized("No permission -- see authorization schemes"));
            who = token.user();
        }
        Map<String, Object> headers = new LinkedHashMap<>();
        ex.headers().forEach((k, v) -> {
            if (!SECRET_HEADERS.contains(k.toLowerCase(Locale.ROOT))) {
                headers.put(k, v);
            }
        });
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("body", ex.raw() == null ? "" : ex.raw());
        Object post = ex.body();
        if (isForm(ex) && post instanceof List<?> l && l.size() == 1) {
            post = l.get(0);
        }
        data.put("post", post == null ? Map.of() : post);
        data.put("headers", headers);
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "fire_hook");
        load.put("path", path);
        load.put("data", data);
        try {
            master.callWithClientKey(load, CALL_TIMEOUT);
        } catch (ApiException e) {
            throw e.status() == 500 ? ApiException.badRequest("the hook was refused: " + e.getMessage()) : e;
        }
        AuditLog.action(who, null, "hook", "salt/netapi/hook/" + path, null, null, "fired");
        return Routes.Reply.ok(Map.of("success", true));
    }

    /** salt-api keeps a form's fields as one mapping; jsalt reads a form as a one-chunk lowstate list. */
    private static boolean isForm(Routes.Exchange ex) {
        String type = ex.headers().getOrDefault("Content-Type", "");
        return type.isEmpty() || type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }
}
