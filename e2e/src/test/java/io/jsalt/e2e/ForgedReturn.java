package io.jsalt.e2e;

import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.SessionCipher;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A hostile but accepted minion: it holds a real session key (signed in with its own key files) and
 * tries to speak for another minion on the request port.
 */
public final class ForgedReturn {
    private final KeyPair key;
    private final Session session;
    private final RequestClient client;

    private ForgedReturn(KeyPair key, Session session, RequestClient client) {
        this.key = key;
        this.session = session;
        this.client = client;
    }

    public static ForgedReturn signInAs(String id, Path pkiDir, int retPort) {
        KeyPair key = RsaKeys.readKeyPair(pkiDir.resolve("minion.pem"));
        RequestClient client = Transport.create().connectRequestClient("127.0.0.1", retPort);
        SignInResult r = new SignIn(id, key, new MasterKeyPin(pkiDir, ""), client, Duration.ofSeconds(5)).attempt();
        if (!(r instanceof SignInResult.Accepted a)) {
            throw new AssertionError("sign-in as " + id + " failed: " + r);
        }
        return new ForgedReturn(key, a.session(), client);
    }

    /** This minion's own key pair (it signs with it and proves its id with it). */
    public KeyPair key() {
        return key;
    }

    /** A return naming {@code id}, signed with this minion's key. */
    public Object sendReturn(String id, String jid, Object ret) {
        return send(new ReturnLoad(id, jid, "test.ping", List.of(), ret, 0, true).toSignedLoad(key.getPrivate()));
    }

    /**
     * A return naming {@code id}, MACed with the secret the master gave this minion at its sign-in (jsalt's
     * return MAC), as a jsalt minion sends its own returns.
     */
    public Object sendMacedReturn(String id, String jid, Object ret) {
        if (session.returnMac() == null) {
            throw new AssertionError("the master gave this sign-in no return secret");
        }
        return send(session.returnMac().seal(new ReturnLoad(id, jid, "test.ping", List.of(), ret, 0, true).toLoad()));
    }

    public Object sendUnsignedReturn(String id, String jid, Object ret) {
        return send(new ReturnLoad(id, jid, "test.ping", List.of(), ret, 0, true).toLoad());
    }

    /** Any aes load, sent under this minion's session; the decrypted answer. */
    public Object send(Map<String, Object> load) {
        SessionCipher cipher = new SessionCipher(session.crypticle());
        String nonce = SessionCipher.newNonce();
        return cipher.decryptReply(client.request(cipher.encryptRequest(load, nonce), Duration.ofSeconds(5)), nonce);
    }
}
