package io.jsalt.minion.channel;

/** The minion has no session with the master right now (pending, rejected, or the master is away). */
public final class NotSignedInException extends RuntimeException {
    public NotSignedInException() {
        super("not signed in to the master");
    }
}
