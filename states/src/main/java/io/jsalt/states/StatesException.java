package io.jsalt.states;

/** The states layer's exception family: a template that does not render, an SLS tree that does not compile. */
public class StatesException extends RuntimeException {
    public StatesException(String message) {
        super(message);
    }

    public StatesException(String message, Throwable cause) {
        super(message, cause);
    }
}
