package io.jsalt.minion.testing;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.transport.message.SignedClear;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Just enough of a master for a minion to live against, on real sockets: it answers {@code _auth} as told
 * (accept, pending, reject), answers every aes request {@code True}, and publishes signed jobs under a session
 * key it can rotate. It records what it received. Signs with the vectors' master key.
 */
public final class FakeMaster implements AutoCloseable {
    /** How {@code _auth} is answered. */
    public enum Mode { ACCEPT, PENDING, REJECT }

    private final KeyPair key = SaltVectors.masterKeyPair();
    private final String pem = SaltVectors.text("keys/master.pub");
    private final PublishServer publisher;
    private final RequestServer requests;
    private final List<AuthRequest> auths = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> loads = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.ACCEPT;

    private volatile Crypticle sessionKey = new Crypticle(Crypticle.generateKeyString());
    private long serial;

    public FakeMaster(Transport transport) {
        publisher = transport.bindPublisher("127.0.0.1", 0);
        requests = transport.bindRequestServer("127.0.0.1", 0, 2, this::handle);
    }

    public int requestPort() {
        return requests.port();
    }

    public int publishPort() {
        return publisher.port();
    }

    public void answerAuth(Mode mode) {
        this.mode = mode;
    }

    /** A new session key; serials restart at 0, as a master's do after rotation. */
    public synchronized void rotateSessionKey() {
        sessionKey = new Crypticle(Crypticle.generateKeyString());
        serial = 0;
    }

    /** Publishes a job to every subscriber, signed, under the current key with the next serial. */
    public synchronized void publish(String fun, Object tgt, String tgtType, String jid) {
        Map<String, Object> load = new PublishLoad(fun, List.of(), tgt, jid, "", tgtType, "root").toLoad();
        load.put("serial", serial++);
        publisher.publish(Publication.encode(sessionKey, key.getPrivate(), load));
    }

    public List<AuthRequest> auths() {
        return auths;
    }

    /** The decrypted aes loads received with this {@code cmd}, request nonce removed. */
    public List<Map<String, Object>> loads(String cmd) {
        return loads.stream().filter(l -> cmd.equals(l.get("cmd"))).toList();
    }

    private byte[] handle(byte[] frame) {
        RequestEnvelope envelope = RequestEnvelope.decode(frame);
        if (RequestEnvelope.CLEAR.equals(envelope.enc())) {
            AuthRequest req = AuthRequest.fromLoad(envelope.clearLoad());
            auths.add(req);
            return SignedClear.seal(authReply(req).toLoad(), key.getPrivate());
        }
        SessionCipher cipher = new SessionCipher(sessionKey);
        Map<String, Object> load;
        try {
            load = new LinkedHashMap<>(cipher.decryptRequest(envelope.aesLoad()));
        } catch (CryptoException e) {
            return SaltPack.pack("bad load");
        }
        String nonce = (String) load.remove("nonce");
        loads.add(load);
        return cipher.encryptReply(true, nonce);
    }

    private AuthReply authReply(AuthRequest req) {
        return switch (mode) {
            case PENDING -> AuthReply.of(AuthReply.Outcome.PENDING, req.nonce());
            case REJECT -> AuthReply.of(AuthReply.Outcome.REJECTED, req.nonce());
            case ACCEPT -> {
                java.security.PublicKey minion = io.jsalt.crypto.RsaKeys.parsePublicKey(req.pub());
                String session = sessionKey.keyString();
                byte[] aes = Rsa.oaepEncrypt(minion, session.getBytes(StandardCharsets.US_ASCII));
                byte[] sig = Rsa.x931PrivateEncrypt(key.getPrivate(), sha256Hex(session).getBytes(StandardCharsets.US_ASCII));
                byte[] token = null;
                if (req.token() != null) {
                    try {
                        token = Rsa.oaepEncrypt(minion, Rsa.oaepDecrypt(key.getPrivate(), req.token()));
                    } catch (CryptoException e) {
                        // sealed to another master key: leave it out, as jsalt's master does
                    }
                }
                yield AuthReply.accepted(pem, publisher.port(), aes, sig, token, req.nonce());
            }
        };
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        requests.close();
        publisher.close();
    }
}
