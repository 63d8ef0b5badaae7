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
 * (accept, pending, reject), {@code _pillar} with a private pillar (empty unless told; late if told), the file server
 * commands from a folder ({@link #serveFiles}), every other aes request {@code True}, and publishes signed jobs under
 * a session key it can rotate. It records what it received. Signs with the vectors' master key.
 */
public final class FakeMaster implements AutoCloseable {
    /** How {@code _auth} is answered. */
    public enum Mode { ACCEPT, PENDING, REJECT }

    private final KeyPair key;
    private final String pem;
    private final PublishServer publisher;
    private final RequestServer requests;
    private final List<AuthRequest> auths = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> loads = new CopyOnWriteArrayList<>();
    private final Map<String, java.security.PublicKey> minionKeys = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Mode mode = Mode.ACCEPT;
    private volatile FakeFileServer files = new FakeFileServer(null);
    private volatile boolean pillarBadLoad;
    private volatile Map<String, Object> pillar = Map.of();
    /** How many of the next _pillar requests are answered too late, and how late. */
    private final java.util.concurrent.atomic.AtomicInteger pillarsToHold = new java.util.concurrent.atomic.AtomicInteger();
    private volatile java.time.Duration pillarHold = java.time.Duration.ZERO;
    private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);
    private volatile Object returnAnswer = true;
    private final List<Object> clearCmds = new CopyOnWriteArrayList<>();
    private final java.util.Set<Object> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private volatile Crypticle sessionKey = new Crypticle(Crypticle.generateKeyString());
    private long serial;

    public FakeMaster(Transport transport) {
        this(transport, 0, 0);
    }

    /** A master on given ports (0: any free one): one that comes back where it was, for failback. */
    public FakeMaster(Transport transport, int requestPort, int publishPort) {
        this(transport, requestPort, publishPort, SaltVectors.masterKeyPair());
    }

    /** A master with a key of its own: one a minion that pinned the vectors' key must refuse. */
    public FakeMaster(Transport transport, int requestPort, int publishPort, KeyPair key) {
        this.key = key;
        this.pem = io.jsalt.crypto.RsaKeys.publicKeyPem(key.getPublic());
        publisher = transport.bindPublisher("127.0.0.1", publishPort);
        try {
            // workers to spare: a held _pillar keeps one busy while others answer
            requests = transport.bindRequestServer("127.0.0.1", requestPort, 6, this::handle);
        } catch (RuntimeException e) {
            publisher.close(); // a port still held by a closed master: the caller tries again, on both ports
            throw e;
        }
    }

    /** What every {@code _return} is answered: {@code true} (the default) or {@code false} (refused). */
    public void answerReturns(Object answer) {
        this.returnAnswer = answer;
    }

    /**
     * Answers every later aes request of these commands {@code False}, as jsalt's master refuses a pillar or an
     * event of a minion it has not accepted, and Salt's an unknown command.
     */
    public void refuse(String... cmds) {
        refused.addAll(List.of(cmds));
    }

    /** The {@code cmd} of every clear request received ({@code _auth}, {@code ping}), in arrival order. */
    public List<Object> clearCmds() {
        return clearCmds;
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

    /** Answers every _pillar with Salt's "bad load", as a master that cannot read this minion's session would. */
    public void answerPillarWithBadLoad(boolean badLoad) {
        this.pillarBadLoad = badLoad;
    }

    /** The pillar every later _pillar is answered with (empty by default). */
    public void answerPillar(Map<String, Object> pillar) {
        this.pillar = Map.copyOf(pillar);
    }

    /**
     * Holds the next {@code count} _pillar requests for {@code hold} before answering them, as a loaded master does:
     * a minion that waits less has given up by then.
     */
    public void holdPillars(int count, java.time.Duration hold) {
        this.pillarHold = hold;
        this.pillarsToHold.set(count);
    }

    /** Answers _file_list, _file_hash and _serve_file from {@code root}/<saltenv>/ in chunks of {@code chunk} bytes. */
    public void serveFiles(java.nio.file.Path root, int chunk) {
        files = new FakeFileServer(root, chunk);
    }

    /** Publishes a job to every subscriber, signed, under the current key with the next serial. */
    public void publish(String fun, Object tgt, String tgtType, String jid) {
        publish(fun, List.of(), tgt, tgtType, jid, Map.of());
    }

    /** Publishes a job with arguments and extra load fields ({@code timeout}, ...). */
    public synchronized void publish(String fun, List<Object> arg, Object tgt, String tgtType, String jid, Map<String, Object> extra) {
        Map<String, Object> load = new PublishLoad(fun, arg, tgt, jid, "", tgtType, "root").toLoad();
        load.putAll(extra);
        load.put("serial", serial++);
        publisher.publish(Publication.encode(sessionKey, key.getPrivate(), load));
    }

    public List<AuthRequest> auths() {
        return auths;
    }

    /** The {@code cmd} of every decrypted aes load received, in arrival order. */
    public List<Object> cmds() {
        return loads.stream().map(l -> l.get("cmd")).toList();
    }

    /** The decrypted aes loads received with this {@code cmd}, request nonce removed. */
    public List<Map<String, Object>> loads(String cmd) {
        return loads.stream().filter(l -> cmd.equals(l.get("cmd"))).toList();
    }

    private byte[] handle(byte[] frame) {
        RequestEnvelope envelope = RequestEnvelope.decode(frame);
        if (RequestEnvelope.CLEAR.equals(envelope.enc())) {
            clearCmds.add(envelope.clearLoad().get("cmd"));
            if ("ping".equals(envelope.clearLoad().get("cmd"))) {
                return SaltPack.pack(true);
            }
            AuthRequest req = AuthRequest.fromLoad(envelope.clearLoad());
            auths.add(req);
            minionKeys.put(req.id(), io.jsalt.crypto.RsaKeys.parsePublicKey(req.pub()));
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
        Object cmd = load.get("cmd");
        if (refused.contains(cmd)) {
            return cipher.encryptReply(false, nonce);
        }
        if ("_pillar".equals(cmd) && pillarBadLoad) {
            return SaltPack.pack("bad load");
        }
        if ("_pillar".equals(cmd) && pillarsToHold.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            try {
                closing.await(pillarHold.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if ("_pillar".equals(cmd) && minionKeys.containsKey(load.get("id"))) {
            return SaltPack.pack(privateReply(minionKeys.get(load.get("id")), nonce));
        }
        if ("_return".equals(cmd)) {
            return cipher.encryptReply(returnAnswer, nonce);
        }
        if (cmd instanceof String c && c.startsWith("_file") || "_serve_file".equals(cmd)) {
            return cipher.encryptReply(files.answer(load), nonce);
        }
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

    /** Salt's private reply with the pillar set by {@link #answerPillar}, as jsalt's master answers _pillar. */
    private Map<String, Object> privateReply(java.security.PublicKey minion, String nonce) {
        String oneOff = Crypticle.generateKeyString();
        byte[] sealedKey = Rsa.oaepEncrypt(minion, oneOff.getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("key", sealedKey);
        signed.put("pillar", pillar);
        signed.put("nonce", nonce);
        byte[] data = SaltPack.pack(signed);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("data", data);
        envelope.put("sig", Rsa.sign(key.getPrivate(), data));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("key", sealedKey);
        reply.put("pillar", new Crypticle(oneOff).seal(SaltPack.pack(envelope), null));
        return reply;
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
        closing.countDown();
        requests.close();
        publisher.close();
    }
}
