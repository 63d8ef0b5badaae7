package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.request.AuthHandler.Policy;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.RecordedEvents;
import io.jsalt.master.support.SaltVectors;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.event.EventFrame;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.SignedClear;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Salt's sign-in decision (PROTOCOL.md, "Sign-in"), one branch per test, in the order Salt takes them. */
class AuthHandlerTest {
    private static final int PUBLISH_PORT = 24505;
    private static final String NONCE = "0123456789abcdef0123456789abcdef";
    private static final String ID = "web1";

    @TempDir
    Path pki;
    KeyStore keys;
    final SessionKey session = new SessionKey();
    final RecordedEvents events = new RecordedEvents();
    final AtomicReference<Policy> policy = new AtomicReference<>(new Policy(false, false, 0));
    final KeyPair master = TestKeys.master();
    final KeyPair minion = TestKeys.minion(1);
    final KeyPair impostor = TestKeys.minion(2);
    AuthHandler handler;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        EventBus bus = new EventBus();
        bus.addListener(events);
        handler = new AuthHandler(keys, master, session, bus, policy::get, PUBLISH_PORT);
    }

    // --- 1. invalid id

    @ParameterizedTest
    @ValueSource(strings = {"../x", "a/b", "a\0b", "..", "", "white space"})
    void refusesAnInvalidIdWithRetFalseAndStoresNothing(String id) throws IOException {
        policy.set(new Policy(true, true, 0)); // not even open mode lets it through

        assertThat(signIn(id, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE));

        assertThat(filesUnder(pki)).isEmpty();
    }

    @Test
    void refusesAnUnreadablePublicKeyWithRetFalse() throws IOException {
        policy.set(new Policy(true, false, 0));
        Map<String, Object> load = new AuthRequest(ID, NONCE, "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----", null).toLoad();

        assertThat(open(handler.handle(load))).containsOnly(entry("ret", false), entry("nonce", NONCE));
        assertThat(filesUnder(pki)).isEmpty();
    }

    // --- 2. max_minions

    @Test
    void answersFullWhenMaxMinionsAreAlreadyAccepted() {
        keys.store(KeyState.ACCEPTED, "other1", TestKeys.pem(impostor));
        keys.store(KeyState.ACCEPTED, "other2", TestKeys.pem(impostor));
        policy.set(new Policy(true, false, 2));

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", "full"), entry("nonce", NONCE));

        assertThat(keys.stateOf(ID)).isEmpty();
        assertThat(authEvent()).containsEntry("act", "full").containsEntry("result", false).containsEntry("id", ID);
    }

    @Test
    void anAcceptedMinionStillSignsInWhenTheMasterIsFull() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        keys.store(KeyState.ACCEPTED, "other1", TestKeys.pem(impostor));
        policy.set(new Policy(false, false, 2));

        assertAccepted(signIn(ID, minion), minion);
    }

    @Test
    void fullComesBeforeOpenMode() {
        keys.store(KeyState.ACCEPTED, "other1", TestKeys.pem(impostor));
        policy.set(new Policy(false, true, 1));

        assertThat(signIn(ID, minion)).containsEntry("ret", "full");
    }

    // --- 3. open mode

    @Test
    void openModeAcceptsANewMinion() {
        policy.set(new Policy(false, true, 0));

        assertAccepted(signIn(ID, minion), minion);
        assertThat(events.acts("salt/auth")).containsExactly("accept");
    }

    @Test
    void openModeComesBeforeRejectionAndKeyMismatch() {
        policy.set(new Policy(false, true, 0));
        keys.store(KeyState.REJECTED, "rejected1", TestKeys.pem(minion));
        keys.store(KeyState.ACCEPTED, "changed1", TestKeys.pem(impostor));

        assertAccepted(signIn("rejected1", minion), minion);
        assertAccepted(signIn("changed1", minion), minion);
    }

    /**
     * Salt's open mode writes (or overwrites) the presented key into minions/ ("host key change detected
     * in open mode"); without it the minion signs in but every return and event it sends is refused,
     * since they are checked against the accepted key.
     */
    @Test
    void openModeRecordsThePresentedKeyAsAccepted() {
        policy.set(new Policy(false, true, 0));

        assertAccepted(signIn(ID, minion), minion);

        assertThat(keys.acceptedKey(ID)).contains(minion.getPublic());
    }

    // --- 4. rejected

    @Test
    void aRejectedIdIsRefusedEvenWithAutoAccept() {
        keys.store(KeyState.REJECTED, ID, TestKeys.pem(minion));
        policy.set(new Policy(true, false, 0));

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE));

        assertThat(keys.stateOf(ID)).contains(KeyState.REJECTED);
        assertThat(authEvent()).containsEntry("act", "reject").containsEntry("result", false);
    }

    // --- 5. accepted or pending with another key

    @Test
    void anAcceptedIdWithADifferentKeyIsDeniedAndTheKeyKeptInDenied() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        policy.set(new Policy(true, false, 0));

        assertThat(signIn(ID, impostor)).containsOnly(entry("ret", false), entry("nonce", NONCE));

        assertThat(keys.acceptedKey(ID)).contains(minion.getPublic());
        assertThat(keys.pem(KeyState.DENIED, ID).map(RsaKeys::parsePublicKey)).contains(impostor.getPublic());
        assertThat(authEvent()).containsEntry("act", "denied").containsEntry("result", false)
                .containsEntry("pub", TestKeys.pem(impostor));
    }

    @Test
    void aPendingIdWithADifferentKeyIsDeniedToo() {
        keys.store(KeyState.PENDING, ID, TestKeys.pem(minion));
        policy.set(new Policy(true, false, 0));

        assertThat(signIn(ID, impostor)).containsEntry("ret", false);

        assertThat(keys.pem(KeyState.PENDING, ID).map(RsaKeys::parsePublicKey)).contains(minion.getPublic());
        assertThat(keys.pem(KeyState.DENIED, ID).map(RsaKeys::parsePublicKey)).contains(impostor.getPublic());
        assertThat(events.acts("salt/auth")).containsExactly("denied");
    }

    @Test
    void theSameKeyInAnotherPemLayoutIsTheSameKey() {
        String pem = TestKeys.pem(minion).replace("\n", "\r\n");
        keys.store(KeyState.ACCEPTED, ID, pem);

        assertAccepted(signIn(ID, minion), minion);
    }

    // --- 6. pending with the same key

    @Test
    void aPendingIdWithTheSameKeyStaysPending() {
        keys.store(KeyState.PENDING, ID, TestKeys.pem(minion));

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", true), entry("nonce", NONCE));

        assertThat(keys.stateOf(ID)).contains(KeyState.PENDING);
        assertThat(authEvent()).containsEntry("act", "pend").containsEntry("result", true);
    }

    @Test
    void aPendingIdIsAcceptedAndMovedOnceAutoAcceptIsOn() {
        keys.store(KeyState.PENDING, ID, TestKeys.pem(minion));
        policy.set(new Policy(true, false, 0));

        assertAccepted(signIn(ID, minion), minion);

        assertThat(keys.stateOf(ID)).contains(KeyState.ACCEPTED);
        assertThat(keys.list(KeyState.PENDING)).isEmpty();
        assertThat(events.acts("salt/auth")).containsExactly("accept");
    }

    @Test
    void thePolicyIsReadOnEveryRequest() {
        keys.store(KeyState.PENDING, ID, TestKeys.pem(minion));
        assertThat(signIn(ID, minion)).containsEntry("ret", true);

        policy.set(new Policy(true, false, 0));

        assertAccepted(signIn(ID, minion), minion);
    }

    // --- 7. new id

    @Test
    void aNewIdIsWrittenToPendingAndToldToWait() throws IOException {
        assertThat(signIn(ID, minion)).containsOnly(entry("ret", true), entry("nonce", NONCE));

        assertThat(keys.stateOf(ID)).contains(KeyState.PENDING);
        assertThat(RsaKeys.parsePublicKey(Files.readString(pki.resolve("minions_pre").resolve(ID))))
                .isEqualTo(minion.getPublic());
        assertThat(authEvent()).containsEntry("act", "pend").containsEntry("result", true).containsEntry("id", ID)
                .containsEntry("pub", TestKeys.pem(minion));
    }

    @Test
    void aNewIdIsAcceptedAtOnceWithAutoAccept() {
        policy.set(new Policy(true, false, 0));

        assertAccepted(signIn(ID, minion), minion);

        assertThat(keys.acceptedKey(ID)).contains(minion.getPublic());
        assertThat(authEvent()).containsEntry("act", "accept").containsEntry("result", true);
    }

    // --- 8. accepted with the same key

    @Test
    void anAcceptedIdWithItsOwnKeyGetsTheSessionKey() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        byte[] token = "a-random-token-string-of-the-minion".getBytes(StandardCharsets.US_ASCII);

        Map<String, Object> reply = signIn(ID, minion, Rsa.oaepEncrypt(master.getPublic(), token));

        assertAccepted(reply, minion);
        assertThat(Rsa.oaepDecrypt(minion.getPrivate(), Wire.bytes(reply, "token"))).isEqualTo(token);
        assertThat(authEvent()).containsEntry("act", "accept").containsEntry("result", true).containsEntry("id", ID);
    }

    @Test
    void anAcceptReplyCarriesNoTokenWhenTheRequestHadNone() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));

        Map<String, Object> reply = signIn(ID, minion, null);

        assertAccepted(reply, minion);
        assertThat(reply).doesNotContainKey("token");
    }

    @Test
    void aTokenTheMasterKeyCannotOpenIsLeftOutButTheMinionIsStillAccepted() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        byte[] forAnotherMaster = Rsa.oaepEncrypt(impostor.getPublic(), "token".getBytes(StandardCharsets.US_ASCII));

        Map<String, Object> reply = signIn(ID, minion, forAnotherMaster);

        assertAccepted(reply, minion);
        assertThat(reply).doesNotContainKey("token");
    }

    @Test
    void afterRotationAnAcceptedMinionGetsTheNewKey() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        String before = decryptAes(signIn(ID, minion), minion);

        session.rotate("test");

        Map<String, Object> reply = signIn(ID, minion);
        String after = decryptAes(reply, minion);
        assertThat(after).isNotEqualTo(before).isEqualTo(session.keyString());
        assertAccepted(reply, minion); // the signature kept between sign-ins follows the rotation too
    }

    // --- the accepted key kept parsed between sign-ins follows every change of the key store

    @Test
    void aKeyReplacedAfterASignInIsTheOneCheckedAtTheNext() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        assertAccepted(signIn(ID, minion), minion);

        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(impostor)); // jsalt-key, or an operator's new key

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE));
        assertThat(keys.pem(KeyState.DENIED, ID).map(RsaKeys::parsePublicKey)).contains(minion.getPublic());
        assertAccepted(signIn(ID, impostor), impostor);
    }

    @Test
    void aKeyRejectedAfterASignInIsRefusedAtTheNext() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        assertAccepted(signIn(ID, minion), minion);
        events.clear();

        assertThat(keys.move(ID, KeyState.ACCEPTED, KeyState.REJECTED)).isTrue();

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE));
        assertThat(authEvent()).containsEntry("act", "reject");
    }

    @Test
    void aKeyMovedAwayOnDiskByAnotherProcessAfterASignInIsRefusedAtTheNext() throws IOException {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        assertAccepted(signIn(ID, minion), minion);

        // what a jsalt-key process does beside the running master: a rename between Salt's folders
        Files.move(pki.resolve("minions").resolve(ID), pki.resolve("minions_rejected").resolve(ID));

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE));
    }

    @Test
    void aKeyDeletedAfterASignInStartsOverAsANewKey() {
        keys.store(KeyState.ACCEPTED, ID, TestKeys.pem(minion));
        assertAccepted(signIn(ID, minion), minion);

        keys.delete(ID);

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", true), entry("nonce", NONCE)); // pending: wait
        assertThat(keys.stateOf(ID)).contains(KeyState.PENDING);
    }

    @Test
    void everyReplyIsSignedByTheMasterKeyOnly() {
        byte[] frame = handler.handle(wire(new AuthRequest(ID, NONCE, TestKeys.pem(minion), null).toLoad()));

        assertThat(SignedClear.open(frame, master.getPublic())).containsEntry("ret", true);
        assertThatThrownBy(() -> SignedClear.open(frame, impostor.getPublic())).isInstanceOf(WireException.class);
        assertThat(Wire.asMap(SaltPack.unpack(frame))).containsEntry("enc", "clear");
    }

    // --- a real salt-minion's sign-in (Salt 3006.8 captures)

    @Test
    void acceptsTheFirstSignInOfARealSaltMinionWithAutoAccept() {
        policy.set(new Policy(true, false, 0));
        Map<String, Object> load = RequestEnvelope.decode(SaltVectors.bytes(SaltVectors.RUN1 + "001-minion-to-master-auth-request.bin")).clearLoad();

        Map<String, Object> reply = open(handler.handle(load));

        KeyPair vectorMinion = SaltVectors.minionKey();
        assertAccepted(reply, vectorMinion, "c4d6fa1d8be64752b56b166b0f530cd3");
        assertThat(reply).doesNotContainKey("token");
        assertThat(keys.acceptedKey("vector-minion")).contains(RsaKeys.parsePublicKey(SaltVectors.minionPub()));
    }

    @Test
    void putsARealSaltMinionInPendingWithoutAutoAccept() {
        byte[] frame = SaltVectors.bytes(SaltVectors.RUN1 + "001-minion-to-master-auth-request.bin");

        Map<String, Object> reply = open(handler.handle(RequestEnvelope.decode(frame).clearLoad()));

        assertThat(reply).containsOnly(entry("ret", true), entry("nonce", "c4d6fa1d8be64752b56b166b0f530cd3"));
        assertThat(keys.pem(KeyState.PENDING, "vector-minion").map(RsaKeys::parsePublicKey))
                .contains(RsaKeys.parsePublicKey(SaltVectors.minionPub()));
    }

    @Test
    void echoesTheTokenOfARealSaltCallSignIn() {
        policy.set(new Policy(true, false, 0));
        String name = "022-minion-to-master-auth-request";
        Map<String, Object> load = RequestEnvelope.decode(SaltVectors.bytes(SaltVectors.RUN1 + name + ".bin")).clearLoad();
        String expectedToken = Wire.string(SaltVectors.json(SaltVectors.RUN1 + name + ".json"), "token_decrypted_with_master_pem");

        Map<String, Object> reply = open(handler.handle(load));

        KeyPair vectorMinion = SaltVectors.minionKey();
        assertAccepted(reply, vectorMinion, Wire.string(load, "nonce"));
        assertThat(new String(Rsa.oaepDecrypt(vectorMinion.getPrivate(), Wire.bytes(reply, "token")), StandardCharsets.US_ASCII))
                .isEqualTo(expectedToken);
    }

    @Test
    void theRealSaltMinionFrameSignsInThroughTheDispatcher() {
        policy.set(new Policy(true, false, 0));
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of("_auth", handler), Map.of());

        byte[] reply = dispatcher.handle(SaltVectors.bytes(SaltVectors.RUN1 + "001-minion-to-master-auth-request.bin"));

        assertThat(decryptAes(open(reply), SaltVectors.minionKey())).isEqualTo(session.keyString());
    }

    // --- pending-key flood (docs/security.md)

    @Test
    void aNewKeyBeyondMaxPendingMinionsIsAskedToWaitAndNotWritten() {
        keys.store(KeyState.PENDING, "other1", TestKeys.pem(impostor));
        keys.store(KeyState.PENDING, "other2", TestKeys.pem(impostor));
        policy.set(new Policy(false, false, 0, 2, 1000));

        assertThat(signIn(ID, minion)).containsEntry("ret", true);

        assertThat(keys.stateOf(ID)).isEmpty();
        assertThat(events.all()).isEmpty();
    }

    @Test
    void newPendingKeysBeyondTheRatePerMinuteAreNotWritten() {
        policy.set(new Policy(false, false, 0, 0, 3));

        for (int i = 0; i < 10; i++) {
            assertThat(signIn("flood" + i, minion)).containsEntry("ret", true);
        }

        assertThat(keys.list(KeyState.PENDING)).hasSize(3);
    }

    @Test
    void aKeyAlreadyPendingIsNotCountedAgainstTheLimits() {
        keys.store(KeyState.PENDING, ID, TestKeys.pem(minion));
        policy.set(new Policy(false, false, 0, 1, 1));

        assertThat(signIn(ID, minion)).containsEntry("ret", true);
        assertThat(authEvent()).containsEntry("act", "pend");
    }

    // --- helpers

    @Test
    void aNewKeyRejectedOnAnotherMasterBetweenTheLookAndTheWriteIsNeitherWrittenNorAccepted() {
        // the store of a cluster: another master (or an operator) rejects the id just before this master writes
        MinionKeys racing = (MinionKeys) java.lang.reflect.Proxy.newProxyInstance(MinionKeys.class.getClassLoader(),
                new Class<?>[] {MinionKeys.class}, (proxy, method, args) -> {
                    if (method.getName().equals("storeIfNew")) {
                        keys.store(KeyState.REJECTED, (String) args[1], (String) args[2]);
                    }
                    try {
                        return method.invoke(keys, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        EventBus bus = new EventBus();
        bus.addListener(events);
        handler = new AuthHandler(racing, master, session, bus, policy::get, PUBLISH_PORT);
        policy.set(new Policy(true, false, 0)); // auto_accept would have accepted it

        assertThat(signIn(ID, minion)).containsOnly(entry("ret", true), entry("nonce", NONCE)); // wait, and ask again

        assertThat(keys.stateOf(ID)).contains(KeyState.REJECTED);
        assertThat(keys.pem(KeyState.ACCEPTED, ID)).isEmpty();
        assertThat(signIn(ID, minion)).containsOnly(entry("ret", false), entry("nonce", NONCE)); // the next meets the reject
    }

    private Map<String, Object> signIn(String id, KeyPair key) {
        return signIn(id, key, null);
    }

    private Map<String, Object> signIn(String id, KeyPair key, byte[] token) {
        return open(handler.handle(wire(new AuthRequest(id, NONCE, TestKeys.pem(key), token).toLoad())));
    }

    /** The load as the dispatcher hands it over: packed as Salt packs it, then unpacked. */
    private static Map<String, Object> wire(Map<String, Object> load) {
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(load)));
    }

    private Map<String, Object> open(byte[] frame) {
        return SignedClear.open(frame, master.getPublic());
    }

    private void assertAccepted(Map<String, Object> reply, KeyPair minionKey) {
        assertAccepted(reply, minionKey, NONCE);
    }

    private void assertAccepted(Map<String, Object> reply, KeyPair minionKey, String nonce) {
        assertThat(reply).containsEntry("enc", "pub")
                .containsEntry("pub_key", RsaKeys.publicKeyPem(master.getPublic()))
                .containsEntry("publish_port", (long) PUBLISH_PORT)
                .containsEntry("nonce", nonce)
                .doesNotContainKey("ret");
        String sessionKey = decryptAes(reply, minionKey);
        assertThat(sessionKey).isEqualTo(session.keyString());
        byte[] digest = Rsa.x931PublicDecrypt(master.getPublic(), Wire.bytes(reply, "sig"));
        assertThat(new String(digest, StandardCharsets.US_ASCII)).isEqualTo(sha256Hex(sessionKey));
    }

    private static String decryptAes(Map<String, Object> reply, KeyPair minionKey) {
        return new String(Rsa.oaepDecrypt(minionKey.getPrivate(), Wire.bytes(reply, "aes")), StandardCharsets.US_ASCII);
    }

    private Map<String, Object> authEvent() {
        assertThat(events.tagged("salt/auth")).hasSize(1);
        EventFrame e = events.tagged("salt/auth").get(0);
        return e.data();
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static java.util.List<Path> filesUnder(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).toList();
        }
    }
}
