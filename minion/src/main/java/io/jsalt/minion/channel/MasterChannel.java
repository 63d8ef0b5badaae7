package io.jsalt.minion.channel;

import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.auth.Session;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.SessionCipher;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Encrypted requests to the master under the current session. When the answer does not decrypt (Salt's
 * master answers "bad load" after a key rotation), it signs in again once and retries, as Salt's channel
 * does.
 */
public final class MasterChannel implements MasterRequests {
    /**
     * How long the request connection stays open after its last use unless the minion's
     * {@code request_idle_close} says otherwise: the master spends a file descriptor per open connection, so an
     * idle minion closes its own (Salt's close after every request), while a burst of requests (a return, then the
     * next job's) shares one connection.
     */
    public static final Duration IDLE_CLOSE = Duration.ofSeconds(1);

    private final RequestClient client;
    private final Supplier<Session> session;
    private final Function<Session, Session> reauthenticate;
    private final Duration timeout;

    /**
     * @param reauthenticate signs in again when the given session is still the current one, and returns
     *     the session to use (null when sign-in failed)
     */
    public MasterChannel(RequestClient client, Supplier<Session> session, Function<Session, Session> reauthenticate, Duration timeout) {
        this(client, session, reauthenticate, timeout, IDLE_CLOSE);
    }

    /** @param idleClose how long the request connection stays open after its last request (zero: closed after each) */
    public MasterChannel(RequestClient client, Supplier<Session> session, Function<Session, Session> reauthenticate, Duration timeout,
            Duration idleClose) {
        this.client = client;
        this.session = session;
        this.reauthenticate = reauthenticate;
        this.timeout = timeout;
        client.closeWhenIdle(idleClose); // the client is this minion's only line to the master: sign-in too
    }

    /**
     * Sends the load and returns the master's decrypted answer.
     *
     * @throws io.jsalt.transport.TransportException when the master does not answer
     * @throws NotSignedInException when there is no session to speak under
     */
    @Override
    public Object send(Map<String, Object> load) {
        return send(s -> load);
    }

    /**
     * Sends the load made for the session it goes out under ({@code loadFor}: a return is sealed with that
     * session's secret), made again for the new session when this one is refused and the minion signs in again.
     *
     * @throws io.jsalt.transport.TransportException when the master does not answer
     * @throws NotSignedInException when there is no session to speak under
     */
    public Object send(Function<Session, Map<String, Object>> loadFor) {
        Session current = session.get();
        if (current == null) {
            throw new NotSignedInException();
        }
        try {
            return exchange(current, loadFor.apply(current));
        } catch (CryptoException | WireException e) {
            Session renewed = reauthenticate.apply(current);
            if (renewed == null) {
                throw new NotSignedInException();
            }
            return exchange(renewed, loadFor.apply(renewed));
        }
    }

    /**
     * Sends the load and returns the master's private reply (Salt's {@code crypted_transfer_decode_dictentry}):
     * the value under {@code dictKey}, opened with this minion's key and checked against the master's.
     *
     * @throws io.jsalt.transport.TransportException when the master does not answer
     * @throws NotSignedInException when there is no session to speak under
     * @throws UnexpectedReplyException when the master refuses the request
     */
    @Override
    public Object sendForPrivateReply(Map<String, Object> load, String dictKey, PrivateKey minionKey) {
        Session current = session.get();
        if (current == null) {
            throw new NotSignedInException();
        }
        try {
            return privateExchange(current, load, dictKey, minionKey);
        } catch (StaleSessionException e) {
            // only a master with another session key is helped by signing in again; a reply that fails its
            // own checks (signature, nonce, shape) is final for this request and goes to the caller
            Session renewed = reauthenticate.apply(current);
            if (renewed == null) {
                throw new NotSignedInException();
            }
            return privateExchange(renewed, load, dictKey, minionKey);
        }
    }

    private Object privateExchange(Session s, Map<String, Object> load, String dictKey, PrivateKey minionKey) {
        SessionCipher cipher = new SessionCipher(s.crypticle());
        String nonce = SessionCipher.newNonce();
        byte[] reply = client.request(cipher.encryptRequest(load, nonce), timeout);
        Object decoded = SaltPack.unpack(reply);
        if (decoded instanceof Map<?, ?>) {
            return PrivateReply.open(decoded, dictKey, nonce, minionKey, s.masterKey());
        }
        if ("bad load".equals(decoded)) {
            throw new StaleSessionException("the master cannot decrypt this request (\"bad load\")");
        }
        // an ordinary encrypted answer: the master refused (false) or does not know the command
        Object answer;
        try {
            answer = cipher.decryptReply(reply, nonce);
        } catch (CrypticleAuthException e) {
            throw new StaleSessionException("the master's answer fails this session's HMAC");
        }
        throw new UnexpectedReplyException("the master answered " + answer + " instead of a private reply");
    }

    private Object exchange(Session s, Map<String, Object> load) {
        SessionCipher cipher = new SessionCipher(s.crypticle());
        String nonce = SessionCipher.newNonce();
        byte[] reply = client.request(cipher.encryptRequest(load, nonce), timeout);
        return cipher.decryptReply(reply, nonce);
    }
}
