package io.jsalt.states.render;

import io.jsalt.states.StatesException;

/** A template or data file that does not render; the message names the file, the line and the cause. */
public final class RenderException extends StatesException {
    public RenderException(String message) {
        super(message);
    }

    public RenderException(String message, Throwable cause) {
        super(message, cause);
    }
}
