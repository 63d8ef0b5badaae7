package io.jsalt.transport;

/** The master did not answer a request within its timeout; the socket has been recreated. */
public final class RequestTimeoutException extends TransportException {
    public RequestTimeoutException(String message) {
        super(message);
    }
}
