package io.jsalt.minion.supervisor;

/** The supervisor could not do what was asked (it is stopped, or it did not answer in time). */
public class SupervisorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SupervisorException(String message) {
        super(message);
    }

    public SupervisorException(String message, Throwable cause) {
        super(message, cause);
    }
}
