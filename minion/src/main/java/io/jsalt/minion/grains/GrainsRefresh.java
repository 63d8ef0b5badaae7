package io.jsalt.minion.grains;

/**
 * What a grains write asks of the minion afterwards (Salt's {@code saltutil.refresh_grains} at the end of
 * {@code grains.setvals}): re-read the grains and, with {@code tellMaster}, send them to the master.
 */
@FunctionalInterface
public interface GrainsRefresh {

    void refresh(boolean tellMaster);

    /** No master to tell (jsalt-call, tests): a write already re-reads the grains file. */
    GrainsRefresh LOCAL = tellMaster -> { };
}
