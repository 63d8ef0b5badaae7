package io.jsalt.minion.channel;

import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.auth.Session;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.SessionCipher;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Encrypted requests to the master under the current session. When the answer does not decrypt (Salt's
 * master answers "bad load" after a key rotation), it signs in again once and retries, as Salt's channel
 * does.
 */
public final class MasterChannel {
    private final RequestClient client;
    private final Supplier<Session> session;
    private final Function<Session, Session> reauthenticate;
    private final Duration timeout;

    /**
     * @param reauthenticate signs in again when the given session is still the current one, and returns
     *     the session to use (null when sign-in failed)
     */
    public MasterChannel(RequestClient client, Supplier<Session> session, Function<Session, Session> reauthenticate, Duration timeout) {
        this.client = client;
        this.session = session;
        this.reauthenticate = reauthenticate;
        this.timeout = timeout;
    }

    /**
     * Sends the load and returns the master's decrypted answer.
     *
     * @throws io.jsalt.transport.TransportException when the master does not answer
     * @throws NotSignedInException when there is no session to speak under
     */
    public Object send(Map<String, Object> load) {
        Session current = session.get();
        if (current == null) {
            throw new NotSignedInException();
        }
        try {
            return exchange(current, load);
        } catch (CryptoException | WireException e) {
            Session renewed = reauthenticate.apply(current);
            if (renewed == null) {
                throw new NotSignedInException();
            }
            return exchange(renewed, load);
        }
    }

    private Object exchange(Session s, Map<String, Object> load) {
        SessionCipher cipher = new SessionCipher(s.crypticle());
        String nonce = SessionCipher.newNonce();
        byte[] reply = client.request(cipher.encryptRequest(load, nonce), timeout);
        return cipher.decryptReply(reply, nonce);
    }
}
