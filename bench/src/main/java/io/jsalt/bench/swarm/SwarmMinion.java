package io.jsalt.bench.swarm;

import java.time.Instant;

/** One minion of the swarm, whatever runs it. */
interface SwarmMinion extends AutoCloseable {
    void start();

    boolean isSignedIn();

    /** When it last signed in; null before the first time. */
    Instant signedInAt();

    @Override
    void close();
}
