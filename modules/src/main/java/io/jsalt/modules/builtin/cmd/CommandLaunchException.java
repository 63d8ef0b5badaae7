package io.jsalt.modules.builtin.cmd;

/**
 * The process could not be started: no such program, no permission. Carries the exit code a shell
 * would have given (127 not found, 126 not executable).
 */
public class CommandLaunchException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    public CommandLaunchException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
