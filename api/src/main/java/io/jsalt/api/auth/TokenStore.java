package io.jsalt.api.auth;

import io.jsalt.master.auth.AuthList;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live login tokens of this API process, each living {@code token_expire} seconds. Values are 40 hex
 * digits from a SecureRandom, as Salt's (salt-api refuses a token that is not hex before looking it up).
 * Kept in memory: a restart of jsalt-api logs everyone out (Salt keeps them as files in the master's cachedir).
 */
public final class TokenStore {
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final long tokenExpireSeconds;

    public TokenStore(Clock clock, long tokenExpireSeconds) {
        this.clock = clock;
        this.tokenExpireSeconds = tokenExpireSeconds;
    }

    public Token create(String user, String eauth, AuthList perms) {
        byte[] bytes = new byte[20];
        random.nextBytes(bytes);
        double now = now();
        Token token = new Token(HexFormat.of().formatHex(bytes), now, now + tokenExpireSeconds, user, eauth, perms);
        tokens.put(token.token(), token);
        return token;
    }

    /** The live token with this value; an expired one is removed and not returned. */
    public Optional<Token> find(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Token token = tokens.get(value);
        if (token == null) {
            return Optional.empty();
        }
        if (token.expiredAt(now())) {
            tokens.remove(value);
            return Optional.empty();
        }
        return Optional.of(token);
    }

    /** Logout: the token is dead from now on. */
    public boolean revoke(String value) {
        return value != null && tokens.remove(value) != null;
    }

    private double now() {
        return clock.millis() / 1000.0;
    }
}
