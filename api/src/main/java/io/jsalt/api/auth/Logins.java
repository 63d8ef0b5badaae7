package io.jsalt.api.auth;

import io.jsalt.api.ApiException;
import io.jsalt.api.lowstate.MasterClient;
import io.jsalt.master.auth.EauthToken;
import io.jsalt.master.auth.ExternalAuth;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Logins kept by the master, not by this process: {@code mk_token} turns credentials into a token (the master
 * checks them against {@code external_auth}), {@code get_token} finds a live one, {@code rm_token} ends it.
 * So tokens are shared by every jsalt-api and CLI of the master, survive restarts, and a token dies on the
 * master when its user is removed. The rights shown at login are read from this process's copy of
 * {@code external_auth} (the same file); the master enforces its own reading at every request.
 */
public final class Logins {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    private static final String NOT_AUTHENTICATED = "Could not authenticate using provided credentials";

    private final ExternalAuth externalAuth;
    private final MasterClient master;

    public Logins(ExternalAuth externalAuth, MasterClient master) {
        this.externalAuth = externalAuth;
        this.master = master;
    }

    /**
     * @param address the HTTP client's, vouched for to the master (its own login limit counts per address too)
     * @throws ApiException 401 "Could not authenticate using provided credentials", as salt-api; 429 past the
     *     master's login limit
     */
    public Token login(String eauth, String user, String password, String address) {
        if (eauth == null || user == null || password == null) {
            throw ApiException.unauthorized(NOT_AUTHENTICATED);
        }
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "mk_token");
        load.put("eauth", eauth);
        load.put("username", user);
        load.put("password", password);
        master.vouchFor(load, address);
        Map<String, Object> reply;
        try {
            reply = master.callClear(load, CALL_TIMEOUT);
        } catch (ApiException e) {
            throw e.status() == 401 ? ApiException.unauthorized(NOT_AUTHENTICATED) : e;
        }
        return token(reply);
    }

    /** The live token with this value, as the master knows it now. */
    public Optional<Token> find(String value) {
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(token(master.callClear(Map.of("cmd", "get_token", "token", value), CALL_TIMEOUT)));
        } catch (ApiException e) {
            if (e.status() == 401) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Logout: the token is dead on the master from now on. */
    public void logout(Token token) {
        master.callClear(Map.of("cmd", "rm_token", "token", token.token()), CALL_TIMEOUT);
    }

    private Token token(Map<String, Object> reply) {
        EauthToken t;
        try {
            t = EauthToken.fromMap(reply);
        } catch (IllegalArgumentException e) {
            throw new ApiException(500, "unreadable token data from the master");
        }
        return new Token(t.token(), t.start(), t.expire(), t.name(), t.eauth(), externalAuth.authList(t.eauth(), t.name(), t.groups()));
    }
}
