package io.jsalt.minion.jobs;

import io.jsalt.crypto.Crypticle;

/**
 * Refuses a publication whose serial is not above the last one seen under the same session key (Salt's
 * Crypticle.loads), so a captured publication cannot be replayed. The count restarts with each key.
 */
final class SerialGuard {
    private String key;
    private long last = -1;

    /** False for a replayed or missing serial (Salt 3006+ masters always send one). */
    synchronized boolean accept(Crypticle sessionKey, Object serial) {
        if (!sessionKey.keyString().equals(key)) {
            key = sessionKey.keyString();
            last = -1;
        }
        if (!(serial instanceof Number n)) {
            return false;
        }
        if (n.longValue() <= last) {
            return false;
        }
        last = n.longValue();
        return true;
    }
}
