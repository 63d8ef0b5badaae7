package io.jsalt.transport;

/** A socket-level failure: a port that cannot be bound, a peer that did not answer in time. */
public class TransportException extends RuntimeException {
    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
