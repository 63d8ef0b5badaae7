package io.jsalt.api.auth;

import io.jsalt.api.ApiException;
import io.jsalt.master.auth.AuthList;
import io.jsalt.master.auth.ExternalAuth;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns eauth credentials into a {@link Token}, as Salt's {@code LoadAuth.mk_token}: the backend must be
 * configured in {@code external_auth} and must vouch for the password. Only the {@code file} backend exists
 * yet; any other name is refused like a wrong password (never a hint at which part was wrong).
 */
public final class Logins {
    private static final Logger log = LoggerFactory.getLogger(Logins.class);

    private final ExternalAuth externalAuth;
    private final TokenStore tokens;

    public Logins(ExternalAuth externalAuth, TokenStore tokens) {
        this.externalAuth = externalAuth;
        this.tokens = tokens;
    }

    /** @throws ApiException 401 "Could not authenticate using provided credentials", as salt-api */
    public Token login(String eauth, String user, String password) {
        if (eauth == null || user == null || password == null || !vouches(eauth, user, password)) {
            throw ApiException.unauthorized("Could not authenticate using provided credentials");
        }
        AuthList perms = externalAuth.authList(eauth, user, List.of());
        return tokens.create(user, eauth, perms);
    }

    private boolean vouches(String eauth, String user, String password) {
        if (!externalAuth.enabled(eauth)) {
            log.warn("login refused: the eauth system '{}' is not enabled", eauth);
            return false;
        }
        if (!eauth.equals("file")) {
            log.warn("login refused: the eauth system '{}' is not implemented in jsalt-api (only file)", eauth);
            return false;
        }
        try {
            return new FileEauth(externalAuth.options("file")).authenticate(user, password);
        } catch (IllegalArgumentException e) {
            log.error("external_auth:file is misconfigured: {}", e.getMessage());
            return false;
        }
    }

    public TokenStore tokens() {
        return tokens;
    }
}
