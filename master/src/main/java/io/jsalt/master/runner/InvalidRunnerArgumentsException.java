package io.jsalt.master.runner;

/** The arguments of a runner call do not fit the function's signature. */
public final class InvalidRunnerArgumentsException extends RunnerException {
    public InvalidRunnerArgumentsException(String message) {
        super(message);
    }
}
