package io.jsalt.states.run;

/** One state function ({@code file.managed}, {@code cmd.run}, ...): makes {@code name} as asked, or says what it would do. */
@FunctionalInterface
public interface StateFunction {

    /**
     * @return the outcome; a function that cannot do its job returns a failed result or throws a
     *         {@link io.jsalt.states.StatesException}, which the runner turns into one
     */
    StateResult apply(StateCall call);
}
