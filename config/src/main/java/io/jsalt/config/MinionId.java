package io.jsalt.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A minion's default id. The rule an id must follow lives in one place, the wire's
 * {@link io.jsalt.transport.message.MinionId}, which the master applies to every id it receives.
 */
public final class MinionId {
    static final String FALLBACK = "localhost";

    private MinionId() {
    }

    public static boolean isValid(String id) {
        return io.jsalt.transport.message.MinionId.isValid(id);
    }

    /** The id of a minion whose config names none: this host's name, or "localhost" when it has no usable one. */
    public static String ofThisHost() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            return isValid(name) ? name : FALLBACK;
        } catch (UnknownHostException | SecurityException e) {
            return FALLBACK;
        }
    }
}
