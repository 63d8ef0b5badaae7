package io.jsalt.master.runner;

/**
 * A runner function could not do what was asked. Its message is what the caller sees as the runner's
 * return (with {@code success: false}), so it is written for an operator.
 */
public class RunnerException extends RuntimeException {
    public RunnerException(String message) {
        super(message);
    }
}
