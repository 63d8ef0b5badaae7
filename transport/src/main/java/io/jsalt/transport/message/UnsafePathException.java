package io.jsalt.transport.message;

import io.jsalt.transport.codec.WireException;

/**
 * A path from the wire that must not be used: its form is refused ({@link WirePath}), or joined to a local
 * folder it leads outside that folder. The message says why and never echoes more than a bounded,
 * printable part of the path.
 */
public class UnsafePathException extends WireException {
    private static final long serialVersionUID = 1L;

    public UnsafePathException(String message) {
        super(message);
    }
}
