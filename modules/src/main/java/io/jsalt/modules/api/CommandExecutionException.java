package io.jsalt.modules.api;

/**
 * Thrown by a module function that cannot do what it was asked (Salt's {@code CommandExecutionError}).
 * The caller sees {@code "ERROR: <message>"} and retcode 1.
 */
public class CommandExecutionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CommandExecutionException(String message) {
        super(message);
    }

    public CommandExecutionException(String message, Throwable cause) {
        super(message, cause);
    }
}
