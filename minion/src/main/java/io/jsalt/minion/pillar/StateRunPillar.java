package io.jsalt.minion.pillar;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.Printable;
import java.util.Map;

/**
 * The pillar a state run renders with, as Salt's {@code State._gather_pillar} gets it: compiled by the master for
 * this run, never the copy in memory, which may be empty or old (a sign-in whose {@code _pillar} request timed out).
 * A master that does not answer in time is asked again, three tries in all as Salt's request channel makes; a master
 * that refuses, or no master signed in, ends it at once. Either way the run gets a {@link CommandExecutionException}
 * and renders nothing. The answer becomes the pillar in memory too when it is the minion's own pillar (no override,
 * saltenv or pillarenv), as a {@code saltutil.refresh_pillar} would make it.
 */
public final class StateRunPillar implements FreshPillar {
    /** Salt's {@code ReqChannel} tries a request three times. */
    static final int TRIES = 3;

    private final FreshPillar master;
    private final MinionPillar memory;

    /**
     * @param master asks the master (through whichever master is signed in and answers)
     * @param memory the minion's pillar in memory
     */
    public StateRunPillar(FreshPillar master, MinionPillar memory) {
        this.master = master;
        this.memory = memory;
    }

    /** @throws CommandExecutionException naming the failure, when no master sent the pillar */
    @Override
    public Map<String, Object> fetch(Map<String, Object> override, String saltenv, String pillarenv) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= TRIES; attempt++) {
            try {
                Map<String, Object> pillar = master.fetch(override, saltenv, pillarenv);
                if (override.isEmpty() && saltenv == null && pillarenv == null) {
                    memory.set(pillar);
                }
                return pillar;
            } catch (TransportException e) {
                last = e; // no answer in time (a loaded master): worth asking again
            } catch (RuntimeException e) {
                throw unavailable(e, attempt); // refused, or not signed in to any master: asking again changes nothing
            }
        }
        throw unavailable(last, TRIES);
    }

    private static CommandExecutionException unavailable(RuntimeException cause, int tries) {
        return new CommandExecutionException("no pillar from the master for this state run (" + tries
                + (tries == 1 ? " try" : " tries") + "): " + Printable.reason(cause), cause);
    }
}
