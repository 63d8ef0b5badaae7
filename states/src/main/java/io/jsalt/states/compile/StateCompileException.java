package io.jsalt.states.compile;

import io.jsalt.states.StatesException;
import java.util.List;

/** An SLS tree that cannot become a run: each error is one of Salt's compile messages. */
public final class StateCompileException extends StatesException {
    private final List<String> errors;

    public StateCompileException(List<String> errors) {
        super(String.join("\n", errors));
        this.errors = List.copyOf(errors);
    }

    public StateCompileException(String error) {
        this(List.of(error));
    }

    /** The errors, as Salt returns them (a list of strings, retcode 1). */
    public List<String> errors() {
        return errors;
    }
}
