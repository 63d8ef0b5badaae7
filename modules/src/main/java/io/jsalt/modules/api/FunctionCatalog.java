package io.jsalt.modules.api;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a minion can run, for modules that describe the others ({@code sys.*}). A function that
 * declares a parameter of this type gets the registry it runs in, the way it gets a
 * {@link io.jsalt.modules.ModuleContext}.
 */
public interface FunctionCatalog {

    /** Every callable {@code module.function}, sorted. */
    Set<String> functionNames();

    /** Every module name, sorted. */
    Set<String> moduleNames();

    /** The function's documentation, or empty when there is no such function. */
    Optional<String> doc(String fun);

    /** The function's Python-style signature, e.g. {@code test.echo(text)}, or empty when there is none. */
    Optional<String> signature(String fun);

    /**
     * The function's arguments in the shape of Salt's {@code sys.argspec}: {@code args} (names, or null),
     * {@code defaults} (the defaults of the last arguments, or null), {@code varargs} and {@code kwargs}
     * (true, or null); empty when there is no such function.
     */
    default Optional<Map<String, Object>> argspec(String fun) {
        return Optional.empty();
    }
}
