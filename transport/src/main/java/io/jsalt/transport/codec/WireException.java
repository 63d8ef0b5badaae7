package io.jsalt.transport.codec;

/**
 * A message on the wire could not be decoded or does not have the shape a reader expects.
 *
 * <p>This is the transport layer's one decode failure: truncated or trailing bytes, an unknown or
 * never-used msgpack byte, nesting deeper than allowed, a length header larger than the message, or a
 * field that is missing or of the wrong type. A hostile peer can only ever provoke this exception.
 */
public class WireException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WireException(String message) {
        super(message);
    }

    public WireException(String message, Throwable cause) {
        super(message, cause);
    }
}
