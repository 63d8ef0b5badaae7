package io.jsalt.minion.returns;

import io.jsalt.minion.channel.MasterRequests;
import java.util.List;

/**
 * The masters a return can go to. A minion of one master has one route; a minion of several masters
 * ({@code master: [m1, m2]}) tries the master the job came from first, then the others signed in now, so a
 * return outlives the master that published its job (with a shared job cache, any master stores it).
 */
public interface ReturnRoutes {
    /** One master: {@code key} names it, compared with the origin a job was handed in with. */
    record Route(Object key, MasterRequests channel) {}

    /** The masters to try now, in order: {@code origin} first when it is signed in and connected; null: any order. */
    List<Route> candidates(Object origin);

    /**
     * True while {@code origin} is one of this minion's masters: then only its own refusal ends a return, since
     * another master may refuse a job it never saw. A job whose master is gone (failed over, or before a restart)
     * ends with the first refusal, as with one master.
     */
    boolean isMaster(Object origin);

    /** The one master of a single-master minion (and of tests): every answer is final. */
    static ReturnRoutes single(MasterRequests channel) {
        List<Route> one = List.of(new Route("master", channel));
        return new ReturnRoutes() {
            @Override
            public List<Route> candidates(Object origin) {
                return one;
            }

            @Override
            public boolean isMaster(Object origin) {
                return false;
            }
        };
    }
}
