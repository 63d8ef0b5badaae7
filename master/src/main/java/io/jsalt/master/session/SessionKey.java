package io.jsalt.master.session;

import io.jsalt.crypto.Crypticle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AES session key shared by the master and every accepted minion, with the publication serial that
 * restarts at each rotation. A minion that loses its key (deleted, rejected) can no longer read
 * publications once the key is rotated.
 */
public final class SessionKey {
    private static final Logger log = LoggerFactory.getLogger(SessionKey.class);

    private record Generation(Crypticle crypticle, AtomicLong serial) {}

    private final AtomicReference<Generation> current = new AtomicReference<>(fresh());

    public Crypticle crypticle() {
        return current.get().crypticle();
    }

    /** The key string sent, encrypted, to each minion at sign-in. */
    public String keyString() {
        return current.get().crypticle().keyString();
    }

    /** The serial for the next publication under the current key (starts at 1, as Salt's). */
    public long nextSerial() {
        return current.get().serial().incrementAndGet();
    }

    public void rotate(String reason) {
        current.set(fresh());
        log.info("session key rotated ({})", reason);
    }

    private static Generation fresh() {
        return new Generation(new Crypticle(Crypticle.generateKeyString()), new AtomicLong());
    }
}
