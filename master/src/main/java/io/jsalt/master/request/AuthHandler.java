package io.jsalt.master.request;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.keys.PendingKeyLimit;
import io.jsalt.master.session.ReturnMacKeys;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.session.SignIns;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthReply.Outcome;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.MinionId;
import io.jsalt.transport.message.SignInBlock;
import io.jsalt.transport.message.SignedClear;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code _auth}: Salt's sign-in decision, in Salt's order (PROTOCOL.md): invalid id, full, open mode,
 * rejected, accepted with another key (denied), pending, new. An accepted minion gets the session key
 * encrypted to its own key, with an X9.31 signature over its digest so it knows the master sent it.
 */
public final class AuthHandler implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(AuthHandler.class);
    /** Salt makes 2048-bit keys; anything shorter is too weak to carry the session key. */
    static final int MIN_KEY_BITS = 2048;

    /** The settings the decision reads; re-read on each request so a reload takes effect at once. */
    public record Policy(boolean autoAccept, boolean openMode, int maxMinions, int maxPendingMinions, int pendingKeysPerMinute) {
        /** A policy with the default limits on pending keys. */
        public Policy(boolean autoAccept, boolean openMode, int maxMinions) {
            this(autoAccept, openMode, maxMinions, io.jsalt.config.MasterConfig.AbuseLimits.DEFAULTS.maxPendingMinions(),
                    io.jsalt.config.MasterConfig.AbuseLimits.DEFAULTS.pendingKeysPerMinute());
        }
    }

    private final MinionKeys keys;
    private final KeyPair masterKey;
    private final String masterPem;
    private final SessionKey sessionKey;
    private final EventBus events;
    private final java.util.function.Supplier<Policy> policy;
    private final int publishPort;
    private final PendingKeyLimit pendingLimit = new PendingKeyLimit();
    /** The X9.31 signature over the current session key: deterministic, so made once per rotation, not per sign-in. */
    private volatile SessionSignature sessionSignature;

    private record SessionSignature(String session, byte[] sig) {}

    private final SignIns signIns;
    private final ReturnMacKeys returnMacs;

    public AuthHandler(MinionKeys keys, KeyPair masterKey, SessionKey sessionKey, EventBus events,
            java.util.function.Supplier<Policy> policy, int publishPort) {
        this(keys, masterKey, sessionKey, events, policy, publishPort, new SignIns());
    }

    /** @param signIns told of every accepted sign-in (start events and presence read it) */
    public AuthHandler(MinionKeys keys, KeyPair masterKey, SessionKey sessionKey, EventBus events,
            java.util.function.Supplier<Policy> policy, int publishPort, SignIns signIns) {
        this(keys, masterKey, sessionKey, events, policy, publishPort, signIns, null);
    }

    /** @param returnMacs gives a jsalt minion that asks the secret it MACs its returns with; null: Salt's reply only */
    public AuthHandler(MinionKeys keys, KeyPair masterKey, SessionKey sessionKey, EventBus events,
            java.util.function.Supplier<Policy> policy, int publishPort, SignIns signIns, ReturnMacKeys returnMacs) {
        this.returnMacs = returnMacs;
        this.signIns = signIns;
        this.keys = keys;
        this.masterKey = masterKey;
        this.masterPem = RsaKeys.publicKeyPem(masterKey.getPublic());
        this.sessionKey = sessionKey;
        this.events = events;
        this.policy = policy;
        this.publishPort = publishPort;
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        AuthRequest req = AuthRequest.fromLoad(load);
        Decision decision = decide(req);
        Map<String, Object> signed = decision.acceptedKey() == null ? decision.reply().toLoad()
                : acceptedReply(load, req, decision.acceptedKey());
        return SignedClear.seal(signed, masterKey.getPrivate());
    }

    /** Not accepted: its reply; accepted: the key it was accepted with (the reply is made by {@link #acceptedReply}). */
    private record Decision(AuthReply reply, PublicKey acceptedKey) {
        static Decision notAccepted(AuthReply reply) {
            return new Decision(reply, null);
        }
    }

    /**
     * The accepted reply: Salt's (session key and echoed token, and for a jsalt minion that asks the return secret,
     * each in an OAEP block of its own), or for a jsalt minion that asks for it session key and secret in one block
     * and no token ({@link SignInBlock}: one private-key operation for the minion instead of three, and one for the
     * master instead of two).
     */
    private Map<String, Object> acceptedReply(Map<String, Object> load, AuthRequest req, PublicKey minionPub) {
        String session = sessionKey.keyString();
        byte[] sig = signatureOf(session);
        if (returnMacs != null && SignInBlock.asked(load)) {
            byte[] block = SignInBlock.seal(minionPub, session, returnMacs.macOf(req.id(), minionPub));
            Map<String, Object> reply = AuthReply.accepted(masterPem, publishPort, block, sig, null, req.nonce()).toLoad();
            reply.put(SignInBlock.ASK, SignInBlock.FORMAT);
            return reply;
        }
        byte[] aes = Rsa.oaepEncrypt(minionPub, session.getBytes(StandardCharsets.US_ASCII));
        byte[] token = null;
        if (req.token() != null) {
            try {
                token = Rsa.oaepEncrypt(minionPub, Rsa.oaepDecrypt(masterKey.getPrivate(), req.token()));
            } catch (CryptoException e) {
                log.warn("sign-in of {} carried a token the master key cannot open", req.id());
            }
        }
        Map<String, Object> reply = AuthReply.accepted(masterPem, publishPort, aes, sig, token, req.nonce()).toLoad();
        if (returnMacs != null) {
            returnMacs.offer(load, req.id(), minionPub, reply);
        }
        return reply;
    }

    private Decision decide(AuthRequest req) {
        String id = req.id();
        if (!MinionId.isValid(id)) {
            log.warn("sign-in refused: invalid minion id");
            return Decision.notAccepted(AuthReply.of(Outcome.REJECTED, req.nonce()));
        }
        PublicKey minionPub;
        try {
            minionPub = RsaKeys.parsePublicKey(req.pub());
        } catch (CryptoException e) {
            log.warn("sign-in refused for {}: unreadable public key", id);
            return Decision.notAccepted(AuthReply.of(Outcome.REJECTED, req.nonce()));
        }
        if (!(minionPub instanceof java.security.interfaces.RSAPublicKey rsa) || rsa.getModulus().bitLength() < MIN_KEY_BITS) {
            log.warn("sign-in refused for {}: keys shorter than {} bits are not accepted", id, MIN_KEY_BITS);
            return Decision.notAccepted(AuthReply.of(Outcome.REJECTED, req.nonce()));
        }
        String pem = RsaKeys.publicKeyPem(minionPub);
        Policy p = policy.get();
        if (!p.openMode()) {
            // The common sign-in, a known minion again: its accepted key as the store keeps it parsed (one stat, no
            // read, no parse; the store re-reads it whenever the file or row changes). An accepted key comes first
            // in Salt's order, so this is the decision the full lookup below would reach; anything else takes it.
            Optional<PublicKey> accepted = keys.acceptedKey(id);
            if (accepted.isPresent() && accepted.get().equals(minionPub)) {
                return accept(req, accepted.get(), pem);
            }
        }
        Optional<MinionKeys.StoredKey> stored = keys.lookup(id);
        KeyState state = stored.map(MinionKeys.StoredKey::state).orElse(null);
        if (p.maxMinions() > 0 && state != KeyState.ACCEPTED && keys.list(KeyState.ACCEPTED).size() >= p.maxMinions()) {
            fire(id, "full", false, pem);
            return Decision.notAccepted(AuthReply.of(Outcome.FULL, req.nonce()));
        }
        if (p.openMode()) {
            keys.store(KeyState.ACCEPTED, id, pem); // as Salt: open mode (over)writes the presented key
            return accept(req, minionPub, pem);
        }
        if (state == KeyState.REJECTED) {
            fire(id, "reject", false, pem);
            log.info("sign-in refused for {}: key rejected", id);
            return Decision.notAccepted(AuthReply.of(Outcome.REJECTED, req.nonce()));
        }
        if (state == KeyState.ACCEPTED || state == KeyState.PENDING) {
            if (!sameKey(stored.get().pem(), minionPub)) {
                keys.store(KeyState.DENIED, id, pem);
                fire(id, "denied", false, pem);
                log.warn("sign-in denied for {}: its key differs from the {} key on file", id, state.label());
                return Decision.notAccepted(AuthReply.of(Outcome.REJECTED, req.nonce()));
            }
            if (state == KeyState.ACCEPTED) {
                return accept(req, minionPub, pem);
            }
            if (p.autoAccept()) {
                if (!keys.move(id, KeyState.PENDING, KeyState.ACCEPTED)) {
                    return changedMeanwhile(id, req);
                }
                return accept(req, minionPub, pem);
            }
            fire(id, "pend", true, pem);
            return Decision.notAccepted(AuthReply.of(Outcome.PENDING, req.nonce()));
        }
        if (p.autoAccept()) {
            if (!keys.storeIfNew(KeyState.ACCEPTED, id, pem)) {
                return changedMeanwhile(id, req);
            }
            log.info("key of {} auto-accepted", id);
            return accept(req, minionPub, pem);
        }
        PendingKeyLimit.Verdict verdict = pendingLimit.admit(keys.list(KeyState.PENDING).size(), p.maxPendingMinions(),
                p.pendingKeysPerMinute());
        if (verdict != PendingKeyLimit.Verdict.ADMITTED) {
            // "wait and retry", as for a pending key, but nothing is written: the minion asks again later
            log.warn("new key from {} not kept: {}", id, verdict == PendingKeyLimit.Verdict.TOO_MANY_PENDING
                    ? "max_pending_minions (" + p.maxPendingMinions() + ") keys already wait for acceptance"
                    : "more than pending_keys_per_minute (" + p.pendingKeysPerMinute() + ") new keys this minute");
            return Decision.notAccepted(AuthReply.of(Outcome.PENDING, req.nonce()));
        }
        if (!keys.storeIfNew(KeyState.PENDING, id, pem)) {
            return changedMeanwhile(id, req);
        }
        log.info("new key from {} is pending acceptance", id);
        fire(id, "pend", true, pem);
        return Decision.notAccepted(AuthReply.of(Outcome.PENDING, req.nonce()));
    }

    /**
     * The key's state changed between the look and the write (another master of a cluster saw the same new
     * minion, or an operator acted): nothing is written, and the minion asks again and meets the new state.
     */
    private static Decision changedMeanwhile(String id, AuthRequest req) {
        log.info("sign-in of {}: its key changed state meanwhile; it is asked to try again", id);
        return Decision.notAccepted(AuthReply.of(Outcome.PENDING, req.nonce()));
    }

    private Decision accept(AuthRequest req, PublicKey minionPub, String pem) {
        signIns.signedIn(req.id());
        fire(req.id(), "accept", true, pem);
        log.debug("{} signed in", req.id());
        return new Decision(null, minionPub);
    }

    private byte[] signatureOf(String session) {
        SessionSignature memo = sessionSignature;
        if (memo == null || !memo.session().equals(session)) {
            memo = new SessionSignature(session,
                    Rsa.x931PrivateEncrypt(masterKey.getPrivate(), sha256Hex(session).getBytes(StandardCharsets.US_ASCII)));
            sessionSignature = memo;
        }
        return memo.sig().clone(); // each reply gets its own copy of the kept signature
    }

    private static boolean sameKey(String storedPem, PublicKey presented) {
        try {
            return RsaKeys.parsePublicKey(storedPem).equals(presented);
        } catch (CryptoException e) {
            return false;
        }
    }

    private void fire(String id, String act, boolean result, String pem) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("result", result);
        data.put("act", act);
        data.put("id", id);
        data.put("pub", pem);
        events.fire("salt/auth", data);
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new WireException("SHA-256 unavailable", e);
        }
    }
}
