package io.jsalt.master.runner;

/** One runner function: its signature and what it does with bound arguments. */
public record RunnerFunction(RunnerSignature signature, Body body) {
    /** The function's work; it may throw {@link RunnerException} with a message for the operator. */
    @FunctionalInterface
    public interface Body {
        Object call(RunnerArgs args);
    }

    public String name() {
        return signature.fun();
    }
}
