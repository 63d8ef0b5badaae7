package io.jsalt.master.runner;

/**
 * One runner function: its signature, what it does with bound arguments, and its documentation for
 * {@code doc.runner} (what it returns; the signature is shown with it).
 */
public record RunnerFunction(RunnerSignature signature, String doc, Body body) {
    /** The function's work; it may throw {@link RunnerException} with a message for the operator. */
    @FunctionalInterface
    public interface Body {
        Object call(RunnerArgs args);
    }

    public RunnerFunction {
        doc = doc == null ? "" : doc;
    }

    /** A function without documentation of its own: doc.runner shows its signature alone. */
    public RunnerFunction(RunnerSignature signature, Body body) {
        this(signature, "", body);
    }

    public String name() {
        return signature.fun();
    }

    /** Salt's docstring layout: the signature, what it does, and a CLI example. */
    public String docstring() {
        StringBuilder text = new StringBuilder(signature.toString()).append("\n\n");
        if (!doc.isEmpty()) {
            text.append(doc).append("\n\n");
        }
        return text.append("CLI Example:\n\n    jsalt-run ").append(name()).toString();
    }
}
