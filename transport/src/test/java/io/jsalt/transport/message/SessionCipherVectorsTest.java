package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN1;
import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CrypticleAuthException;
import io.jsalt.crypto.CryptoException;
import io.jsalt.transport.codec.SaltPack;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Encrypted requests and their replies under the session key, against what Salt 3006.8 sent. */
class SessionCipherVectorsTest {

    private final SessionCipher firstKey = new SessionCipher(Vectors.sessionCrypticle(RUN1, 0));

    /** Request/reply pairs on the request port and the session key (index in _index.json) they used. */
    @ParameterizedTest(name = "{0} request {1}, reply {2}")
    @CsvSource({
        "frames/run1-auto-accept/, 004, 0",
        "frames/run1-auto-accept/, 006, 0",
        "frames/run1-auto-accept/, 008, 0",
        "frames/run1-auto-accept/, 011, 0",
        "frames/run1-auto-accept/, 014, 0",
        "frames/run1-auto-accept/, 017, 0",
        "frames/run1-auto-accept/, 020, 0",
        "frames/run1-auto-accept/, 025, 1",
        "frames/run1-auto-accept/, 027, 1",
        "frames/run1-auto-accept/, 032, 1",
        "frames/run2-pending-then-accepted-zmq-filtering/, 011, 0",
        "frames/run2-pending-then-accepted-zmq-filtering/, 013, 0",
        "frames/run2-pending-then-accepted-zmq-filtering/, 018, 0",
        "frames/run2-pending-then-accepted-zmq-filtering/, 024, 0",
    })
    void decryptsEveryCapturedAesRequestToTheRecordedLoad(String run, String number, int keyIndex) {
        SessionCipher cipher = new SessionCipher(Vectors.sessionCrypticle(run, keyIndex));

        Map<String, Object> load = cipher.decryptRequest(RequestEnvelope.decode(Vectors.frame(run, number)).aesLoad());

        assertThat(Vectors.toVectorJson(load)).isEqualTo(Vectors.path(Vectors.described(run, number), "load_crypticle", "decoded"));
    }

    @Test
    void decryptsTheFirstJobReturnToTheRecordedLoad() {
        Map<String, Object> recorded = Vectors.map(Vectors.described(RUN1, "011"), "load_crypticle", "decoded");

        Map<String, Object> load = firstKey.decryptRequest(RequestEnvelope.decode(Vectors.frame(RUN1, "011")).aesLoad());

        assertThat(Vectors.toVectorJson(load)).isEqualTo(recorded);
        assertThat(load).containsEntry("cmd", "_return").containsEntry("nonce", "6d238f86580f4efaba43c1a434a005e3");
    }

    @Test
    void decryptsTheMastersReplyToThatReturnAsNone() {
        String nonce = nonceOf(RUN1, "011");

        assertThat(firstKey.decryptReply(Vectors.frame(RUN1, "012"), nonce)).isNull();
    }

    @Test
    void decryptsTheMastersRepliesToBothStartEventsAsNoneLikeTheRecording() {
        for (String[] pair : new String[][] {{"006", "007"}, {"008", "009"}}) {
            assertThat(Vectors.path(Vectors.described(RUN1, pair[1]), "reply_crypticle", "nonce")).isEqualTo(nonceOf(RUN1, pair[0]));
            assertThat(firstKey.decryptReply(Vectors.frame(RUN1, pair[1]), nonceOf(RUN1, pair[0]))).as(pair[1]).isNull();
        }
    }

    @Test
    void refusesAReplyCarryingAnotherRequestsNonce() {
        String otherNonce = nonceOf(RUN1, "014");

        assertThatThrownBy(() -> firstKey.decryptReply(Vectors.frame(RUN1, "012"), otherNonce))
                .isInstanceOf(CryptoException.class)
                .hasMessageContaining("nonce");
    }

    @Test
    void refusesARequestUnderAnotherSessionKey() {
        SessionCipher secondKey = new SessionCipher(Vectors.sessionCrypticle(RUN1, 1));
        byte[] blob = RequestEnvelope.decode(Vectors.frame(RUN1, "011")).aesLoad();

        assertThatThrownBy(() -> secondKey.decryptRequest(blob)).isInstanceOf(CrypticleAuthException.class);
        SessionCipher run2Key = new SessionCipher(Vectors.sessionCrypticle(RUN2, 0));
        assertThatThrownBy(() -> run2Key.decryptReply(Vectors.frame(RUN1, "012"), nonceOf(RUN1, "011")))
                .isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void encryptsARequestWithItsNonceThatTheOtherSideDecrypts() {
        SessionCipher minion = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));
        SessionCipher master = new SessionCipher(new Crypticle(minion.crypticle().keyString()));
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_return");
        load.put("id", "web1");
        String nonce = SessionCipher.newNonce();

        byte[] frame = minion.encryptRequest(load, nonce);

        RequestEnvelope envelope = RequestEnvelope.decode(frame);
        assertThat(envelope.enc()).isEqualTo("aes");
        assertThat(envelope.version()).isEqualTo(2);
        Map<String, Object> received = master.decryptRequest(envelope.aesLoad());
        assertThat(received).containsExactly(Map.entry("cmd", "_return"), Map.entry("id", "web1"), Map.entry("nonce", nonce));
        assertThat(load).doesNotContainKey("nonce");
        byte[] reply = master.encryptReply(Map.of("ok", List.of(1L, "two")), nonce);
        assertThat(minion.decryptReply(reply, nonce)).isEqualTo(Map.of("ok", List.of(1L, "two")));
    }

    @Test
    void makesNoncesOfThirtyTwoHexCharactersThatDoNotRepeat() {
        String a = SessionCipher.newNonce();
        String b = SessionCipher.newNonce();

        assertThat(a).matches("[0-9a-f]{32}");
        assertThat(b).matches("[0-9a-f]{32}").isNotEqualTo(a);
    }

    @Test
    void sendsTheReplyAsOneMsgpackStringLikeSalt() {
        SessionCipher cipher = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));

        byte[] frame = cipher.encryptReply(true, SessionCipher.newNonce());

        // 96 bytes of Crypticle (iv, one padded block of "pickle::" + nonce + true, hmac) as a str16, never bin
        assertThat(frame[0] & 0xff).isEqualTo(0xda);
        assertThat(frame).hasSize(3 + 96);
        assertThat(SaltPack.unpack(frame)).isInstanceOfAny(byte[].class, String.class);
    }

    private static String nonceOf(String run, String number) {
        return (String) Vectors.path(Vectors.described(run, number), "load_crypticle", "decoded", "nonce");
    }
}
