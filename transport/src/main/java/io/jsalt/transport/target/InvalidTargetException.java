package io.jsalt.transport.target;

/** A target expression that cannot be matched: unknown type, bad regex, wrong shape. */
public final class InvalidTargetException extends RuntimeException {
    public InvalidTargetException(String message) {
        super(message);
    }
}
