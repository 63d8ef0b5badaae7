package io.jsalt.minion.supervisor;

import java.util.function.Consumer;

/**
 * Told of what happens to the supervised processes, on the supervisor's thread (it must not block): every state
 * change, and every process that is no longer supervised (its program was removed, or changed to fewer processes),
 * so that whoever keeps a table of them (the master's fleet view) can drop its row.
 */
@FunctionalInterface
public interface SupervisorListener extends Consumer<ProcessSnapshot> {
    /** A process left the supervisor: its program was removed ({@code update}, {@code remove}) or renamed it. */
    default void removed(String name, String group) {
    }
}
