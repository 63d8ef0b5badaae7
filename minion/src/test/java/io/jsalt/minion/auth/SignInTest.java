package io.jsalt.minion.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestServer;
import io.jsalt.transport.Transport;
import io.jsalt.transport.message.AuthReply;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.ReturnMac;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SignInBlock;
import io.jsalt.transport.message.SignedClear;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One {@code _auth} exchange against a fake master on a real request socket. */
class SignInTest {
    private static final int PUBLISH_PORT = 24_505;
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final String MASTER_PEM = SaltVectors.text("keys/master.pub");
    /** A master this minion never met. */
    private static KeyPair impostor;

    @TempDir
    Path pki;

    private Transport transport;
    private RequestServer server;
    private RequestClient client;
    private final List<AuthRequest> received = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> receivedLoads = new CopyOnWriteArrayList<>();
    private volatile Function<AuthRequest, byte[]> master;
    /** The session key the fake master handed out last. */
    private volatile String sessionKey;

    @BeforeAll
    static void makeImpostorKey() {
        impostor = RsaKeys.generate();
    }

    @BeforeEach
    void startFakeMaster() {
        transport = Transport.create();
        server = transport.bindRequestServer("127.0.0.1", 0, 1, frame -> {
            Map<String, Object> load = RequestEnvelope.decode(frame).clearLoad();
            AuthRequest req = AuthRequest.fromLoad(load);
            receivedLoads.add(load);
            received.add(req);
            return master.apply(req);
        });
        client = transport.connectRequestClient("127.0.0.1", server.port());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        transport.close();
    }

    private SignIn signIn(String masterFinger) {
        return new SignIn("vector-minion", MINION, new MasterKeyPin(pki, masterFinger), client, Duration.ofSeconds(5));
    }

    private SignIn signIn() {
        return signIn("");
    }

    private void pinMasterKey() {
        new MasterKeyPin(pki, "").pinIfAbsent(MASTER_PEM);
    }

    // --- how the fake master answers -------------------------------------------------------------------

    /** What an honest master sends: the session key for this minion, its X9.31 sig, the token echoed. */
    private AuthReply acceptedReply(AuthRequest req, String presentedPem, PrivateKey sessionSigner, String nonce) {
        sessionKey = Crypticle.generateKeyString();
        byte[] aes = Rsa.oaepEncrypt(MINION.getPublic(), sessionKey.getBytes(StandardCharsets.US_ASCII));
        byte[] sig = Rsa.x931PrivateEncrypt(sessionSigner, sha256Hex(sessionKey).getBytes(StandardCharsets.US_ASCII));
        byte[] token = req.token() == null ? null : Rsa.oaepEncrypt(MINION.getPublic(), Rsa.oaepDecrypt(MASTER.getPrivate(), req.token()));
        return AuthReply.accepted(presentedPem, PUBLISH_PORT, aes, sig, token, nonce);
    }

    private byte[] honestAccept(AuthRequest req) {
        return SignedClear.seal(acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce()).toLoad(), MASTER.getPrivate());
    }

    private static byte[] signed(AuthReply reply, PrivateKey signer) {
        return SignedClear.seal(reply.toLoad(), signer);
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Path pinFile() {
        return pki.resolve("minion_master.pub");
    }

    // --- accepted --------------------------------------------------------------------------------------

    @Test
    void acceptedOnFirstContactYieldsTheSessionKeyAndPinsTheMasterKey() throws Exception {
        master = this::honestAccept;

        SignInResult result = signIn().attempt();

        assertThat(result).isInstanceOf(SignInResult.Accepted.class);
        Session session = ((SignInResult.Accepted) result).session();
        assertThat(session.crypticle().keyString()).isEqualTo(sessionKey);
        assertThat(session.masterKey()).isEqualTo(MASTER.getPublic());
        assertThat(session.publishPort()).isEqualTo(PUBLISH_PORT);
        assertThat(RsaKeys.readPublicKey(pinFile())).isEqualTo(MASTER.getPublic());
    }

    // --- the return secret (ReturnMac) ---------------------------------------------------------------------

    /** An honest jsalt master's reply: Salt's, plus the return secret encrypted to {@code to}. */
    private byte[] acceptWithReturnSecret(AuthRequest req, byte[] secret, PublicKey to) {
        Map<String, Object> load = acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce()).toLoad();
        load.put(ReturnMac.KEY_FIELD, new ReturnMac(secret).sealedFor(to));
        return SignedClear.seal(load, MASTER.getPrivate());
    }

    @Test
    void aSignInAsksForAReturnSecretAndKeepsTheOneTheMasterSends() {
        byte[] secret = new byte[ReturnMac.SECRET_BYTES];
        java.util.Arrays.fill(secret, (byte) 7);
        master = req -> acceptWithReturnSecret(req, secret, MINION.getPublic());

        SignInResult result = signIn().attempt();

        assertThat(receivedLoads.get(0)).containsEntry(ReturnMac.ASK, ReturnMac.ALGORITHM);
        ReturnMac kept = ((SignInResult.Accepted) result).session().returnMac();
        Map<String, Object> ret = new ReturnLoad("vector-minion", "20260101000000000001", "test.ping", List.of(), true, 0, true).toLoad();
        assertThat(new ReturnMac(secret).valid(kept.seal(ret))).isTrue();
    }

    @Test
    void aMasterThatSendsNoReturnSecretGivesASessionWithoutOne() {
        master = this::honestAccept; // a salt-master: it ignores the request's field

        SignInResult result = signIn().attempt();

        assertThat(((SignInResult.Accepted) result).session().returnMac()).isNull();
    }

    @Test
    void aReturnSecretThatDoesNotOpenWithThisMinionsKeyIsIgnoredAndReturnsAreSigned() {
        master = req -> acceptWithReturnSecret(req, new byte[ReturnMac.SECRET_BYTES], impostor.getPublic());

        SignInResult result = signIn().attempt();

        assertThat(result).isInstanceOf(SignInResult.Accepted.class);
        assertThat(((SignInResult.Accepted) result).session().returnMac()).isNull();
    }

    // --- the one-block sign-in (SignInBlock) ----------------------------------------------------------------

    /** An honest jsalt master's one-block reply: session key and return secret in {@code aes} for {@code to}; no token. */
    private byte[] oneBlockAccept(AuthRequest req, byte[] secret, PublicKey to) {
        sessionKey = Crypticle.generateKeyString();
        return oneBlockReply(req, SignInBlock.seal(to, sessionKey, new ReturnMac(secret)), MASTER.getPrivate());
    }

    private byte[] oneBlockReply(AuthRequest req, byte[] aes, PrivateKey signer) {
        byte[] sig = Rsa.x931PrivateEncrypt(MASTER.getPrivate(), sha256Hex(sessionKey).getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> load = AuthReply.accepted(MASTER_PEM, PUBLISH_PORT, aes, sig, null, req.nonce()).toLoad();
        load.put(SignInBlock.ASK, SignInBlock.FORMAT);
        return SignedClear.seal(load, signer);
    }

    private static byte[] secretOf(int fill) {
        byte[] secret = new byte[ReturnMac.SECRET_BYTES];
        java.util.Arrays.fill(secret, (byte) fill);
        return secret;
    }

    @Test
    void aSignInAsksForTheOneBlockAndTakesSessionKeyAndSecretFromIt() {
        pinMasterKey(); // the request carries Salt's token all the same (a salt-master needs it); a jsalt master ignores it
        master = req -> oneBlockAccept(req, secretOf(9), MINION.getPublic());

        SignInResult result = signIn().attempt();

        assertThat(receivedLoads.get(0)).containsEntry(SignInBlock.ASK, SignInBlock.FORMAT)
                .containsEntry(ReturnMac.ASK, ReturnMac.ALGORITHM);
        assertThat(received.get(0).token()).isNotNull();
        Session session = ((SignInResult.Accepted) result).session();
        assertThat(session.crypticle().keyString()).isEqualTo(sessionKey);
        Map<String, Object> ret = new ReturnLoad("vector-minion", "20260101000000000001", "test.ping", List.of(), true, 0, true).toLoad();
        assertThat(new ReturnMac(secretOf(9)).valid(session.returnMac().seal(ret))).isTrue();
    }

    @Test
    void aOneBlockReplyToAFirstContactIsAcceptedAndPinsTheMasterKey() {
        master = req -> oneBlockAccept(req, secretOf(3), MINION.getPublic());

        SignInResult result = signIn().attempt();

        assertThat(received.get(0).token()).isNull();
        assertThat(((SignInResult.Accepted) result).session().crypticle().keyString()).isEqualTo(sessionKey);
        assertThat(RsaKeys.readPublicKey(pinFile())).isEqualTo(MASTER.getPublic());
    }

    @Test
    void aOneBlockReplyNotSignedByThePinnedMasterOrForAnotherNonceIsRefused() {
        pinMasterKey();
        // without the token's echo, these two checks are what proves the pinned master answers this request
        master = req -> {
            sessionKey = Crypticle.generateKeyString();
            return oneBlockReply(req, SignInBlock.seal(MINION.getPublic(), sessionKey, new ReturnMac(secretOf(1))), impostor.getPrivate());
        };
        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);

        master = req -> {
            sessionKey = Crypticle.generateKeyString();
            AuthRequest replayed = new AuthRequest(req.id(), "ffffffffffffffffffffffffffffffff", req.pub(), req.token());
            return oneBlockReply(replayed, SignInBlock.seal(MINION.getPublic(), sessionKey, new ReturnMac(secretOf(1))),
                    MASTER.getPrivate());
        };
        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("nonce"));
        assertThat(RsaKeys.readPublicKey(pinFile())).isEqualTo(MASTER.getPublic());
    }

    @Test
    void aOneBlockReplyWhoseSessionKeyIsNotSignedByTheMasterIsRefused() {
        master = req -> {
            byte[] aes = SignInBlock.seal(MINION.getPublic(), Crypticle.generateKeyString(), new ReturnMac(secretOf(2)));
            sessionKey = Crypticle.generateKeyString(); // the reply's sig is over this one, not the block's
            return oneBlockReply(req, aes, MASTER.getPrivate());
        };

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("session key is not signed"));
    }

    @Test
    void aOneBlockThatDoesNotOpenWithThisKeyOrIsNotInTheFormatIsRefusedNotThrown() {
        master = req -> oneBlockAccept(req, secretOf(4), impostor.getPublic());
        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);

        master = req -> { // marked as one block, but Salt's aes: the session key alone
            sessionKey = Crypticle.generateKeyString();
            return oneBlockReply(req, Rsa.oaepEncrypt(MINION.getPublic(), sessionKey.getBytes(StandardCharsets.US_ASCII)),
                    MASTER.getPrivate());
        };
        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("unusable sign-in reply"));
    }

    @Test
    void theFirstRequestCarriesIdNonceAndPublicKeyButNoToken() {
        master = this::honestAccept;

        signIn().attempt();

        AuthRequest req = received.get(0);
        assertThat(req.id()).isEqualTo("vector-minion");
        assertThat(req.nonce()).matches("[0-9a-f]{32}");
        assertThat(RsaKeys.parsePublicKey(req.pub())).isEqualTo(MINION.getPublic());
        assertThat(req.token()).as("no master key cached yet, so no token (Salt's first _auth)").isNull();
    }

    @Test
    void onceTheMasterKeyIsPinnedARequestCarriesATokenAndItsEchoIsAccepted() {
        pinMasterKey();
        master = this::honestAccept;

        SignInResult result = signIn().attempt();

        assertThat(received.get(0).token()).isNotNull();
        assertThat(Rsa.oaepDecrypt(MASTER.getPrivate(), received.get(0).token())).hasSizeGreaterThan(0);
        assertThat(result).isInstanceOf(SignInResult.Accepted.class);
    }

    @Test
    void everyAttemptUsesAFreshNonce() {
        master = this::honestAccept;
        SignIn signIn = signIn();

        signIn.attempt();
        signIn.attempt();

        assertThat(received.get(0).nonce()).isNotEqualTo(received.get(1).nonce());
    }

    @Test
    void aMasterFingerMatchingTheMasterKeyLetsTheFirstSignInThrough() {
        master = this::honestAccept;

        SignInResult result = signIn(SaltVectors.saltFingerprint("master.pub")).attempt();

        assertThat(result).isInstanceOf(SignInResult.Accepted.class);
    }

    // --- pending, rejected, full ----------------------------------------------------------------------

    @Test
    void retTrueMeansPending() {
        master = req -> signed(AuthReply.of(AuthReply.Outcome.PENDING, req.nonce()), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.Pending.class);
        assertThat(Files.exists(pinFile())).as("a pending reply pins nothing").isFalse();
    }

    @Test
    void retFalseMeansRejected() {
        master = req -> signed(AuthReply.of(AuthReply.Outcome.REJECTED, req.nonce()), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.Rejected.class);
    }

    @Test
    void retFullMeansFull() {
        master = req -> signed(AuthReply.of(AuthReply.Outcome.FULL, req.nonce()), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.Full.class);
    }

    @Test
    void aPendingReplyFromThePinnedMasterIsBelieved() {
        pinMasterKey();
        master = req -> signed(AuthReply.of(AuthReply.Outcome.PENDING, req.nonce()), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.Pending.class);
    }

    @Test
    void aRejectionSignedByAnotherKeyThanThePinnedOneIsNotBelieved() {
        pinMasterKey();
        master = req -> signed(AuthReply.of(AuthReply.Outcome.REJECTED, req.nonce()), impostor.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
    }

    @Test
    void aPendingReplyWithAnotherNonceIsRefused() {
        master = req -> signed(AuthReply.of(AuthReply.Outcome.PENDING, "0".repeat(32)), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("nonce"));
    }

    // --- refusing the master --------------------------------------------------------------------------

    @Test
    void anotherMasterKeyThanThePinnedOneIsRefusedAndThePinKept() throws Exception {
        pinMasterKey();
        String impostorPem = RsaKeys.publicKeyPem(impostor.getPublic());
        master = req -> signed(AuthReply.accepted(impostorPem, PUBLISH_PORT,
                Rsa.oaepEncrypt(MINION.getPublic(), Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII)),
                new byte[256], null, req.nonce()), impostor.getPrivate());

        SignInResult result = signIn().attempt();

        assertThat(result).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains(pinFile().toString()));
        assertThat(RsaKeys.readPublicKey(pinFile())).isEqualTo(MASTER.getPublic());
    }

    @Test
    void aReplyPresentingThePinnedKeyButSignedByAnotherIsRefused() {
        pinMasterKey();
        master = req -> signed(acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce()), impostor.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
    }

    @Test
    void aFirstContactReplyNotSignedByTheKeyItPresentsIsRefusedAndNothingPinned() {
        master = req -> signed(acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce()), impostor.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
        assertThat(Files.exists(pinFile())).isFalse();
    }

    @Test
    void aMasterKeyNotMatchingMasterFingerIsRefusedAndNothingPinned() {
        master = this::honestAccept;
        String wrong = "aa:" + "bb:".repeat(30) + "cc";

        SignInResult result = signIn(wrong).attempt();

        assertThat(result).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("master_finger"));
        assertThat(Files.exists(pinFile())).isFalse();
    }

    @Test
    void anAcceptedReplyEchoingAnotherNonceIsRefused() {
        master = req -> signed(acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), "f".repeat(32)), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("nonce"));
        assertThat(Files.exists(pinFile())).isFalse();
    }

    @Test
    void aSessionKeyWhoseX931SignatureIsNotTheMastersIsRefused() {
        master = req -> signed(acceptedReply(req, MASTER_PEM, impostor.getPrivate(), req.nonce()), MASTER.getPrivate());

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
        assertThat(Files.exists(pinFile())).isFalse();
    }

    @Test
    void aSessionKeySignatureOverAnotherKeysDigestIsRefused() {
        master = req -> {
            AuthReply honest = acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce());
            byte[] sigOfAnotherKey = Rsa.x931PrivateEncrypt(MASTER.getPrivate(),
                    sha256Hex(Crypticle.generateKeyString()).getBytes(StandardCharsets.US_ASCII));
            return signed(AuthReply.accepted(MASTER_PEM, PUBLISH_PORT, honest.aes(), sigOfAnotherKey, honest.token(), req.nonce()),
                    MASTER.getPrivate());
        };

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("session key is not signed"));
    }

    @Test
    void aMasterThatDoesNotEchoTheTokenIsRefused() {
        pinMasterKey();
        master = req -> {
            AuthReply honest = acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce());
            return signed(AuthReply.accepted(MASTER_PEM, PUBLISH_PORT, honest.aes(), honest.sig(), null, req.nonce()),
                    MASTER.getPrivate());
        };

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("token"));
    }

    @Test
    void aMasterThatEchoesAnotherTokenIsRefused() {
        pinMasterKey();
        master = req -> {
            AuthReply honest = acceptedReply(req, MASTER_PEM, MASTER.getPrivate(), req.nonce());
            byte[] otherToken = Rsa.oaepEncrypt(MINION.getPublic(), Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII));
            return signed(AuthReply.accepted(MASTER_PEM, PUBLISH_PORT, honest.aes(), honest.sig(), otherToken, req.nonce()),
                    MASTER.getPrivate());
        };

        assertThat(signIn().attempt()).isInstanceOfSatisfying(SignInResult.MasterRefused.class,
                r -> assertThat(r.reason()).contains("token"));
    }

    @Test
    void garbageInsteadOfASignedReplyIsRefusedNotThrown() {
        master = req -> new byte[] {(byte) 0xc1, 1, 2, 3};

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
    }

    @Test
    void anEmptyReplyIsRefusedNotThrown() {
        master = req -> {
            throw new IllegalStateException("the fake master fails; the request server answers an empty frame");
        };

        assertThat(signIn().attempt()).isInstanceOf(SignInResult.MasterRefused.class);
    }

    // --- no answer ------------------------------------------------------------------------------------

    @Test
    void noAnswerFailsWithinTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                RequestClient toSilent = transport.connectRequestClient("127.0.0.1", silent.getLocalPort())) {
            SignIn signIn = new SignIn("vector-minion", MINION, new MasterKeyPin(pki, ""), toSilent, Duration.ofMillis(300));

            long start = System.nanoTime();
            SignInResult result = signIn.attempt();
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(result).isInstanceOf(SignInResult.Failed.class);
            assertThat(elapsedMs).isBetween(250L, 3_000L);
        }
    }
}
