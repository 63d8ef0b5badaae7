package io.jsalt.minion.jobs;

import io.jsalt.minion.auth.Session;

/**
 * The master a publication came from, as the job runner needs it: the session it decrypts under, and what to do
 * with a frame that does not decrypt (sign in again, then offer it again). The runner also hands it to the
 * returner as the job's origin, so the return goes back to that master first.
 */
public interface PublicationSource {
    /** The session with that master now; null while not signed in. */
    Session session();

    /** A frame that did not decrypt under {@code failed}: that master's session key changed. */
    void sessionKeyMismatch(Session failed, byte[] frame);

    /**
     * Which master, for counting its publication serials apart from another master's under the same session key
     * (the masters of a cluster share the key, each counts its own serials); null for a minion of one master.
     */
    default String replayScope() {
        return null;
    }
}
