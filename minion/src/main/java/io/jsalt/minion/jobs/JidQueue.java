package io.jsalt.minion.jobs;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The jids of the last jobs this minion took (Salt's {@code jid_queue}, minion_jid_queue_hwm), so a job that
 * arrives twice runs once: the master sends a job again to a minion that signs in while it is in flight, and a
 * publication held across a session-key change is replayed after the sign-in. The serial guard cannot tell: each
 * send has a serial of its own.
 */
final class JidQueue {
    /** Salt keeps 100; the master's catch-up window (timeout + gather_job_timeout) can hold more than that. */
    static final int CAPACITY = 1000;

    private final LinkedHashSet<String> jids = new LinkedHashSet<>();
    private final int capacity;

    JidQueue() {
        this(CAPACITY);
    }

    JidQueue(int capacity) {
        this.capacity = capacity;
    }

    /** True the first time a jid is offered (and it is remembered), false for a jid taken already. */
    synchronized boolean firstTime(String jid) {
        if (!jids.add(jid)) {
            return false;
        }
        if (jids.size() > capacity) {
            Iterator<String> oldest = jids.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }
}
