package io.jsalt.modules.api;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Salt's minion grains file, {@code <configDir>/grains}: a YAML mapping that {@code grains.setval} and friends
 * rewrite. The minion implements it; modules reach it through {@code ModuleContext.grainsFile()}.
 */
public interface GrainsFile {

    /** The grains the file holds; empty when the file is absent. */
    Map<String, Object> read();

    /**
     * Replaces the file's content atomically. Afterwards the minion's {@code grains()} include these values.
     *
     * @throws CommandExecutionException when the file cannot be written
     */
    void write(Map<String, Object> grains);

    /**
     * Reads the file, applies {@code change} and writes the result, as one step: concurrent updates do not
     * lose each other's values. Unlike {@link #read()}, a file that exists but cannot be read or parsed is an
     * error, so that a broken file is never replaced by {@code change} applied to nothing. This default
     * serves single-threaded implementations; the minion's file overrides it with a locked, strict read.
     *
     * @throws CommandExecutionException when the file cannot be read or written
     */
    default void update(UnaryOperator<Map<String, Object>> change) {
        write(change.apply(read()));
    }
}
