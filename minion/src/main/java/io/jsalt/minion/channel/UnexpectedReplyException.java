package io.jsalt.minion.channel;

/** The master answered, under the current session key, something other than what the request expects. */
public final class UnexpectedReplyException extends RuntimeException {
    public UnexpectedReplyException(String message) {
        super(message);
    }
}
