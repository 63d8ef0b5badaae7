package io.jsalt.minion.auth;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnMac;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.transport.message.SignInBlock;
import io.jsalt.transport.message.SignedClear;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code _auth} exchange, checked the way a careful minion must: the master key is the pinned one
 * (or matches master_finger on first contact), the reply is signed by it, the nonce and (Salt's form) token come back,
 * and the session key carries the master's X9.31 signature. It asks a jsalt master for the secret its returns
 * are MACed with ({@link ReturnMac}), with the session key in one OAEP block ({@link SignInBlock}: one private-key
 * operation instead of three); a salt-master sends none, and returns are then signed as Salt's are.
 */
public final class SignIn {
    private final String id;
    private final KeyPair minionKey;
    private final String minionPem;
    private final MasterKeyPin pin;
    private final RequestClient client;
    private final Duration timeout;

    public SignIn(String id, KeyPair minionKey, MasterKeyPin pin, RequestClient client, Duration timeout) {
        this.id = id;
        this.minionKey = minionKey;
        this.minionPem = RsaKeys.publicKeyPem(minionKey.getPublic());
        this.pin = pin;
        this.client = client;
        this.timeout = timeout;
    }

    public SignInResult attempt() {
        String nonce = SessionCipher.newNonce();
        Optional<PublicKey> pinned = pin.pinned();
        String token = Crypticle.generateKeyString();
        byte[] encryptedToken = pinned.map(k -> Rsa.oaepEncrypt(k, token.getBytes(StandardCharsets.US_ASCII))).orElse(null);
        Map<String, Object> request = new AuthRequest(id, nonce, minionPem, encryptedToken).toLoad();
        request.put(ReturnMac.ASK, ReturnMac.ALGORITHM); // a jsalt master answers with a secret to MAC returns with; Salt's ignores it
        request.put(SignInBlock.ASK, SignInBlock.FORMAT); // ... and with it, the session key in one OAEP block
        byte[] frame = RequestEnvelope.clear(request).encode();
        byte[] replyFrame;
        try {
            replyFrame = client.request(frame, timeout);
        } catch (TransportException e) {
            return new SignInResult.Failed(e.getMessage());
        }
        try {
            return check(replyFrame, nonce, encryptedToken == null ? null : token);
        } catch (WireException | CryptoException e) {
            return new SignInResult.MasterRefused("unusable sign-in reply: " + e.getMessage());
        }
    }

    private SignInResult check(byte[] replyFrame, String nonce, String token) {
        Map<String, Object> unverified = SignedClear.peek(replyFrame);
        if (!"pub".equals(unverified.get("enc"))) {
            // pending / rejected / full: still only believed when signed by the master we trust
            PublicKey signer = pin.pinned().orElse(null);
            AuthReply reply = AuthReply.fromLoad(signer == null ? unverified : SignedClear.open(replyFrame, signer));
            if (!nonce.equals(reply.nonce())) {
                return new SignInResult.MasterRefused("the reply does not echo this request's nonce");
            }
            return switch (reply.outcome()) {
                case PENDING -> new SignInResult.Pending();
                case FULL -> new SignInResult.Full();
                default -> new SignInResult.Rejected();
            };
        }
        AuthReply presented = AuthReply.fromLoad(unverified);
        PublicKey masterKey = RsaKeys.parsePublicKey(presented.pubKey());
        Optional<String> refusal = pin.refusal(presented.pubKey(), masterKey);
        if (refusal.isPresent()) {
            return new SignInResult.MasterRefused(refusal.get());
        }
        Map<String, Object> signed = SignedClear.open(replyFrame, masterKey);
        AuthReply reply = AuthReply.fromLoad(signed);
        if (!nonce.equals(reply.nonce())) {
            return new SignInResult.MasterRefused("the reply does not echo this request's nonce");
        }
        if (SignInBlock.carriedBy(signed)) {
            // a jsalt master: session key and return secret in one block, one private-key operation. No token: what
            // its echo proves (the holder of the pinned master key answers this request) the reply's signature over
            // this request's nonce has just proved
            SignInBlock.Opened block = SignInBlock.open(signed, minionKey.getPrivate());
            return accepted(masterKey, reply, block.sessionKey(), null, null, block.returnMac());
        }
        String sessionKey = new String(Rsa.oaepDecrypt(minionKey.getPrivate(), reply.aes()), StandardCharsets.US_ASCII);
        byte[] echoed = token == null || reply.token() == null ? null : Rsa.oaepDecrypt(minionKey.getPrivate(), reply.token());
        return accepted(masterKey, reply, sessionKey, token, echoed, returnMacOf(signed));
    }

    /**
     * The checks every accepted reply passes whatever its form: the session key signed by the master, the token
     * this request sent echoed (an opened {@code echoed}: null when the reply carries none).
     */
    private SignInResult accepted(PublicKey masterKey, AuthReply reply, String sessionKey, String token, byte[] echoed,
            ReturnMac returnMac) {
        byte[] digest = Rsa.x931PublicDecrypt(masterKey, reply.sig());
        if (!Arrays.equals(digest, sha256Hex(sessionKey).getBytes(StandardCharsets.US_ASCII))) {
            return new SignInResult.MasterRefused("the session key is not signed by the master");
        }
        if (token != null) {
            if (echoed == null) {
                return new SignInResult.MasterRefused("the master did not return the sign-in token");
            }
            if (!new String(echoed, StandardCharsets.US_ASCII).equals(token)) {
                return new SignInResult.MasterRefused("the master returned a different sign-in token");
            }
        }
        pin.pinIfAbsent(RsaKeys.publicKeyPem(masterKey));
        return new SignInResult.Accepted(new Session(new Crypticle(sessionKey), masterKey, reply.publishPort(), returnMac));
    }

    /** The return secret of a signed reply; none when it is absent or does not open: returns are then signed. */
    private ReturnMac returnMacOf(Map<String, Object> signed) {
        try {
            return ReturnMac.fromSignInReply(signed, minionKey.getPrivate()).orElse(null);
        } catch (CryptoException | WireException e) {
            return null;
        }
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new CryptoException("SHA-256 unavailable", e);
        }
    }
}
