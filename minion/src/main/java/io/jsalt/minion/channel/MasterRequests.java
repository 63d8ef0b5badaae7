package io.jsalt.minion.channel;

import io.jsalt.minion.auth.Session;
import java.security.PrivateKey;
import java.util.Map;
import java.util.function.Function;

/**
 * Encrypted requests to a master: one master's {@link MasterChannel}, or, for a minion of several masters,
 * whichever of them is signed in and answers.
 */
public interface MasterRequests {
    /**
     * Sends the load and returns the master's decrypted answer.
     *
     * @throws io.jsalt.transport.TransportException when no master answers
     * @throws NotSignedInException when there is no session to speak under
     */
    Object send(Map<String, Object> load);

    /**
     * Sends the load made for the session it goes out under ({@code loadFor}: a return is sealed with that
     * session's secret). A sender that does not know its session (it picks a master per request) makes the load
     * for none: {@code loadFor} gets null.
     */
    default Object send(Function<Session, Map<String, Object>> loadFor) {
        return send(loadFor.apply(null));
    }

    /**
     * Sends the load and returns the master's private reply, the value under {@code dictKey}.
     *
     * @throws io.jsalt.transport.TransportException when no master answers
     * @throws NotSignedInException when there is no session to speak under
     * @throws UnexpectedReplyException when the master refuses the request
     */
    Object sendForPrivateReply(Map<String, Object> load, String dictKey, PrivateKey minionKey);
}
