package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.master.data.MinionDataCache;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.session.SessionKey;
import io.jsalt.master.support.SaltVectors;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.SessionCipher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code _pillar}: the private reply a salt-minion waits for after sign-in (frames 004/005 of run1). */
class PillarHandlerTest {
    private static final String NONCE = "cf0c5a91aad24cb384ba187d81892058";

    @TempDir
    Path pki;
    KeyStore keys;
    final KeyPair master = TestKeys.master();
    final KeyPair minion = SaltVectors.minionKey();
    final MinionDataCache grains = new MinionDataCache();
    PillarHandler handler;

    @BeforeEach
    void setUp() {
        keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "vector-minion", SaltVectors.minionPub());
        handler = new PillarHandler(keys, master.getPrivate(), grains::putGrains);
    }

    @Test
    void theTestsReaderOpensSaltsOwnPillarReply() {
        Map<String, Object> salts = Wire.asMap(SaltPack.unpack(SaltVectors.bytes(SaltVectors.RUN1 + "005-master-to-minion-pillar-reply.bin")));

        Map<String, Object> signed = openPillarReply(salts, minion.getPrivate(), master.getPublic());

        assertThat(signed).containsEntry("pillar", Map.of()).containsEntry("nonce", NONCE);
    }

    @Test
    void answersWithAnEmptyPillarEncryptedForThatMinionAloneAndSignedByTheMaster() {
        Object result = handler.handle(request(NONCE), NONCE);

        assertThat(result).isInstanceOf(PrivateReply.class);
        Map<String, Object> reply = onTheWire(((PrivateReply) result).reply());
        assertThat(reply).containsOnlyKeys("key", "pillar");
        Map<String, Object> signed = openPillarReply(reply, minion.getPrivate(), master.getPublic());
        assertThat(signed).containsOnlyKeys("key", "pillar", "nonce")
                .containsEntry("pillar", Map.of())
                .containsEntry("nonce", NONCE);
    }

    @Test
    void eachReplyHasItsOwnOneOffKey() {
        Map<String, Object> first = onTheWire(((PrivateReply) handler.handle(request(NONCE), null)).reply());
        Map<String, Object> second = onTheWire(((PrivateReply) handler.handle(request(NONCE), null)).reply());

        assertThat(oneOffKey(first, minion.getPrivate())).isNotEqualTo(oneOffKey(second, minion.getPrivate()));
    }

    @Test
    void anotherKeyCannotOpenTheReply() {
        Map<String, Object> reply = onTheWire(((PrivateReply) handler.handle(request(NONCE), null)).reply());

        assertThatThrownBy(() -> oneOffKey(reply, TestKeys.minion(1).getPrivate())).isInstanceOf(RuntimeException.class);
    }

    @Test
    void keepsTheGrainsARealSaltMinionSends() {
        Map<String, Object> load = SaltVectors.aesRequestLoad("004-minion-to-master-pillar-request");

        assertThat(handler.handle(load, null)).isInstanceOf(PrivateReply.class);

        assertThat(grains.grains("vector-minion")).hasValueSatisfying(g -> assertThat(g)
                .containsEntry("os", "Debian").containsEntry("osmajorrelease", 12L).containsEntry("id", "vector-minion"));
    }

    /** Salt's grains often hold None (biosversion in a container, for one): the minion must still get its pillar. */
    @Test
    void answersAMinionWhoseGrainsHoldNone() {
        Map<String, Object> load = request(NONCE);
        Map<String, Object> withNone = new LinkedHashMap<>();
        withNone.put("os", "Debian");
        withNone.put("biosversion", null);
        load.put("grains", withNone);

        Object result = handler.handle(load, null);

        assertThat(result).isInstanceOf(PrivateReply.class);
        assertThat(grains.grains("vector-minion")).hasValueSatisfying(g -> assertThat(g).containsEntry("os", "Debian"));
    }

    @Test
    void refusesAMinionThatIsNotAcceptedAndKeepsNothing() {
        keys.move("vector-minion", KeyState.ACCEPTED, KeyState.PENDING);

        assertThat(handler.handle(request(NONCE), null)).isEqualTo(false);
        assertThat(grains.grains("vector-minion")).isEmpty();
    }

    @Test
    void aRequestWithoutGrainsKeepsNoGrains() {
        Map<String, Object> load = request(NONCE);
        load.remove("grains");

        assertThat(handler.handle(load, null)).isInstanceOf(PrivateReply.class);
        assertThat(grains.grains("vector-minion")).isEmpty();
    }

    @Test
    void anInvalidIdIsAWireError() {
        Map<String, Object> load = request(NONCE);
        load.put("id", "../vector-minion");

        assertThatThrownBy(() -> handler.handle(load, null)).isInstanceOf(WireException.class);
    }

    /**
     * Through the dispatcher, as the master runs it: a salt-minion refuses a pillar whose signed nonce
     * is not the one it sent ("Pillar nonce verification failed").
     */
    @Test
    void thePillarReplyThroughTheDispatcherCarriesTheRequestNonce() {
        SessionKey session = new SessionKey();
        RequestDispatcher dispatcher = new RequestDispatcher(session, Map.of(), Map.of("_pillar", handler));
        SessionCipher cipher = new SessionCipher(session.crypticle());
        String nonce = SessionCipher.newNonce();
        Map<String, Object> load = request(null);
        load.remove("nonce");

        byte[] frame = dispatcher.handle(cipher.encryptRequest(load, nonce));

        Map<String, Object> reply = Wire.asMap(SaltPack.unpack(frame));
        Map<String, Object> signed = openPillarReply(reply, minion.getPrivate(), master.getPublic());
        assertThat(signed).containsEntry("nonce", nonce);
    }

    /** What a salt-minion does with the reply (crypted_transfer_decode_dictentry); returns the signed data. */
    static Map<String, Object> openPillarReply(Map<String, Object> reply, PrivateKey minionKey, PublicKey masterKey) {
        String oneOff = oneOffKey(reply, minionKey);
        Map<String, Object> envelope = Wire.asMap(SaltPack.unpack(new Crypticle(oneOff).open(Wire.bytes(reply, "pillar"), null)));
        byte[] data = Wire.bytes(envelope, "data");
        assertThat(Rsa.verify(masterKey, data, Wire.bytes(envelope, "sig"))).as("master signature over data").isTrue();
        Map<String, Object> signed = Wire.asMap(SaltPack.unpack(data));
        assertThat(Wire.bytes(signed, "key")).as("the signed key is the key of the reply").isEqualTo(Wire.bytes(reply, "key"));
        return signed;
    }

    private static String oneOffKey(Map<String, Object> reply, PrivateKey minionKey) {
        return new String(Rsa.oaepDecrypt(minionKey, Wire.bytes(reply, "key")), StandardCharsets.US_ASCII);
    }

    private static Map<String, Object> request(String nonce) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("id", "vector-minion");
        load.put("grains", Map.of("os", "Debian", "id", "vector-minion"));
        load.put("saltenv", null);
        load.put("pillarenv", null);
        load.put("pillar_override", Map.of());
        load.put("extra_minion_data", Map.of());
        load.put("ver", "2");
        load.put("cmd", "_pillar");
        load.put("nonce", nonce);
        return new LinkedHashMap<>(Wire.asMap(SaltPack.unpack(SaltPack.pack(load))));
    }

    private static Map<String, Object> onTheWire(Map<String, Object> reply) {
        return Wire.asMap(SaltPack.unpack(SaltPack.pack(reply)));
    }
}
