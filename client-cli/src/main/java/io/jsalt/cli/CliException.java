package io.jsalt.cli;

/** A failure the user must read: printed to stderr, mapped to an exit code, no stack trace. */
public final class CliException extends RuntimeException {
    private final ExitCode exitCode;

    public CliException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
