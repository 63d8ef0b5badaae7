package io.jsalt.master.session;

import io.jsalt.crypto.Crypticle;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AES session key shared by the master and every accepted minion, with the publication serial that
 * restarts at each rotation. A minion that loses its key (deleted, rejected) can no longer read
 * publications once the key is rotated. A master of a cluster shares its key with the other masters
 * ({@link #shareThrough}): a rotation is then made once for all of them, and a key made by another master is
 * {@link #adopt adopted}.
 */
public final class SessionKey {
    private static final Logger log = LoggerFactory.getLogger(SessionKey.class);

    private record Generation(Crypticle crypticle, AtomicLong serial) {}

    /** Where rotations are made when the key is shared by several masters. */
    public interface Sharing {
        /** A new key for every master, now. */
        void rotate(String reason);

        /** A new key for every master, unless one was made in the last half {@code period} (by any master). */
        void rotateScheduled(Duration period, String reason);
    }

    private final AtomicReference<Generation> current = new AtomicReference<>(fresh());
    private volatile Sharing sharing;

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

    /** Rotations go through {@code shared} from now on (a master of a cluster). */
    public void shareThrough(Sharing shared) {
        this.sharing = shared;
    }

    public void rotate(String reason) {
        Sharing s = sharing;
        if (s != null) {
            s.rotate(reason);
            return;
        }
        rotateHere(reason);
    }

    /** The rotation {@code publish_session} asks for: with several masters, one of them makes it for all. */
    public void rotateScheduled(Duration period, String reason) {
        Sharing s = sharing;
        if (s != null) {
            s.rotateScheduled(period, reason);
            return;
        }
        rotateHere(reason);
    }

    /** A new key made by this master alone (also a cluster master's fallback while its database is away). */
    public void rotateHere(String reason) {
        current.set(fresh());
        log.info("session key rotated ({})", reason);
    }

    /** Uses {@code keyString}, made by another master of the cluster (or this one through the database); a no-op when it is the key in use. */
    public void adopt(String keyString, String reason) {
        Generation now = current.get();
        if (now.crypticle().keyString().equals(keyString)) {
            return;
        }
        current.set(new Generation(new Crypticle(keyString), new AtomicLong()));
        log.info("session key replaced ({})", reason);
    }

    private static Generation fresh() {
        return new Generation(new Crypticle(Crypticle.generateKeyString()), new AtomicLong());
    }
}
