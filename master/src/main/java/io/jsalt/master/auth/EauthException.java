package io.jsalt.master.auth;

/** An eauth request refused; the message is what the client is told (Salt's wording, never which part was wrong). */
public final class EauthException extends Exception {
    public EauthException(String message) {
        super(message);
    }
}
