package io.jsalt.api.auth;

import io.jsalt.master.auth.AuthList;

/**
 * A login: the token's value, when it was made and when it dies (seconds since the epoch, as Salt writes
 * them), the user, the eauth backend that vouched for them, and their rights at login.
 */
public record Token(String token, double start, double expire, String user, String eauth, AuthList perms) {

    /** Dead from its expiry instant on: at exactly {@code expire} the token is refused. */
    public boolean expiredAt(double now) {
        return now >= expire;
    }
}
