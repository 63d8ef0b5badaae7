package io.jsalt.minion.auth;

/** The outcome of one sign-in attempt. */
public sealed interface SignInResult {
    record Accepted(Session session) implements SignInResult {}

    /** The master holds the key as pending: retry after acceptance_wait_time. */
    record Pending() implements SignInResult {}

    /** The master rejected or denied this minion's key. */
    record Rejected() implements SignInResult {}

    /** The master has reached max_minions. */
    record Full() implements SignInResult {}

    /** This minion refused the master: wrong key, wrong fingerprint, bad signature or echo. */
    record MasterRefused(String reason) implements SignInResult {}

    /** No usable answer (timeout, garbage): retry later. */
    record Failed(String reason) implements SignInResult {}
}
