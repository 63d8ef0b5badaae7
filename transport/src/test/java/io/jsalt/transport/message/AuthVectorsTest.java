package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN1;
import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code _auth} exchange as salt-minion and salt-master 3006.8 spoke it. */
class AuthVectorsTest {

    private static Map<String, Object> clearLoadOf(String run, String number) {
        return RequestEnvelope.decode(Vectors.frame(run, number)).clearLoad();
    }

    @Test
    void readsTheFirstSignInWhichCarriesNoToken() {
        AuthRequest request = AuthRequest.fromLoad(clearLoadOf(RUN1, "001"));

        assertThat(request.id()).isEqualTo("vector-minion");
        assertThat(request.nonce()).isEqualTo("c4d6fa1d8be64752b56b166b0f530cd3");
        assertThat(request.pub()).isEqualTo(Vectors.minionPubPem());
        assertThat(request.token()).isNull();
        assertThat(request.toLoad()).doesNotContainKey("token").containsEntry("cmd", "_auth");
    }

    @Test
    void readsASignInWithATokenThatTheMasterKeyDecrypts() {
        Map<String, Object> described = Vectors.described(RUN1, "022");

        AuthRequest request = AuthRequest.fromLoad(clearLoadOf(RUN1, "022"));

        assertThat(request.id()).isEqualTo("vector-minion");
        assertThat(request.nonce()).isEqualTo("87546883330c4193b0f10ab2ff5b208b");
        assertThat(request.token()).isEqualTo(Vectors.blob(Vectors.path(described, "msgpack_decoded", "load", "token")));
        assertThat(new String(Rsa.oaepDecrypt(Vectors.masterPem(), request.token()), StandardCharsets.US_ASCII))
                .isEqualTo(described.get("token_decrypted_with_master_pem"));
    }

    @Test
    void authRequestSurvivesItsOwnLoadAndTheWire() {
        AuthRequest request = AuthRequest.fromLoad(clearLoadOf(RUN1, "022"));

        byte[] frame = RequestEnvelope.clear(request.toLoad()).encode();
        AuthRequest back = AuthRequest.fromLoad(RequestEnvelope.decode(frame).clearLoad());

        assertThat(back.id()).isEqualTo(request.id());
        assertThat(back.nonce()).isEqualTo(request.nonce());
        assertThat(back.pub()).isEqualTo(request.pub());
        assertThat(back.token()).isEqualTo(request.token());
    }

    @Test
    void refusesASignInWithoutAnId() {
        Map<String, Object> load = new LinkedHashMap<>(clearLoadOf(RUN1, "001"));
        load.remove("id");

        assertThatThrownBy(() -> AuthRequest.fromLoad(load)).isInstanceOf(WireException.class).hasMessageContaining("'id'");
    }

    @Test
    void opensTheAcceptedReplyWithTheMasterKeyAndReadsEveryField() {
        Map<String, Object> described = Vectors.described(RUN1, "002");

        AuthReply reply = AuthReply.fromLoad(SignedClear.open(Vectors.frame(RUN1, "002"), Vectors.masterPub()));

        assertThat(reply.outcome()).isEqualTo(AuthReply.Outcome.ACCEPTED);
        assertThat(reply.pubKey()).isEqualTo(Vectors.masterPubPem());
        assertThat(reply.publishPort()).isEqualTo(24505);
        assertThat(reply.nonce()).isEqualTo(AuthRequest.fromLoad(clearLoadOf(RUN1, "001")).nonce());
        assertThat(reply.token()).isNull();
        String sessionKey = new String(Rsa.oaepDecrypt(Vectors.minionPem(), reply.aes()), StandardCharsets.US_ASCII);
        assertThat(sessionKey).isEqualTo(described.get("session_key")).isEqualTo(Vectors.sessionKeys(RUN1).get(0));
        assertThat(Rsa.x931PublicDecrypt(Vectors.masterPub(), reply.sig()))
                .asString(StandardCharsets.US_ASCII)
                .isEqualTo(sha256Hex(sessionKey))
                .isEqualTo(Vectors.path(described, "aes_sig_check", "expected"));
    }

    @Test
    void readsTheTokenEchoOfTheSecondAcceptedReply() {
        Map<String, Object> described = Vectors.described(RUN1, "023");

        AuthReply reply = AuthReply.fromLoad(SignedClear.open(Vectors.frame(RUN1, "023"), Vectors.masterPub()));

        assertThat(reply.outcome()).isEqualTo(AuthReply.Outcome.ACCEPTED);
        assertThat(new String(Rsa.oaepDecrypt(Vectors.minionPem(), reply.token()), StandardCharsets.US_ASCII))
                .isEqualTo(described.get("token_decrypted_with_minion_pem"))
                .isEqualTo(Vectors.described(RUN1, "022").get("token_decrypted_with_master_pem"));
        assertThat(new String(Rsa.oaepDecrypt(Vectors.minionPem(), reply.aes()), StandardCharsets.US_ASCII))
                .isEqualTo(Vectors.sessionKeys(RUN1).get(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"002", "004", "006"})
    void readsEveryPendingReplyOfTheSecondRun(String number) {
        Map<String, Object> described = Vectors.described(RUN2, number);

        AuthReply reply = AuthReply.fromLoad(SignedClear.open(Vectors.frame(RUN2, number), Vectors.masterPub()));

        assertThat(reply.outcome()).isEqualTo(AuthReply.Outcome.PENDING);
        assertThat(reply.nonce()).isEqualTo(Vectors.path(described, "load_msgpack_decoded", "nonce"));
        assertThat(reply.aes()).isNull();
        assertThat(reply.pubKey()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"002", "004", "006"})
    void sealsAPendingReplyByteForByteAsSaltDid(String number) {
        String nonce = (String) Vectors.path(Vectors.described(RUN2, number), "load_msgpack_decoded", "nonce");

        byte[] sealed = SignedClear.seal(AuthReply.of(AuthReply.Outcome.PENDING, nonce).toLoad(), Vectors.masterPem());

        // PKCS#1 v1.5 signatures are deterministic, so the whole frame must be Salt's
        assertThat(sealed).isEqualTo(Vectors.frame(RUN2, number));
    }

    @Test
    void sealsTheAcceptedReplyByteForByteAsSaltDid() {
        AuthReply reply = AuthReply.fromLoad(SignedClear.open(Vectors.frame(RUN1, "002"), Vectors.masterPub()));

        byte[] sealed = SignedClear.seal(reply.toLoad(), Vectors.masterPem());

        assertThat(sealed).isEqualTo(Vectors.frame(RUN1, "002"));
    }

    @Test
    void sealsAFrameThatOpensAndHasTheStructureOfSaltsAcceptedReply() {
        Map<String, Object> saltFrame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "002")));
        AuthReply original = AuthReply.fromLoad(SignedClear.open(Vectors.frame(RUN1, "002"), Vectors.masterPub()));
        AuthReply fresh = AuthReply.accepted(Vectors.masterPubPem(), 4505,
                Rsa.oaepEncrypt(Vectors.minionPub(), "a session key".getBytes(StandardCharsets.US_ASCII)),
                Rsa.x931PrivateEncrypt(Vectors.masterPem(), sha256Hex("a session key").getBytes(StandardCharsets.US_ASCII)),
                null, "0123456789abcdef0123456789abcdef");

        byte[] sealed = SignedClear.seal(fresh.toLoad(), Vectors.masterPem());

        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(sealed));
        assertThat(frame.keySet()).containsExactlyElementsOf(saltFrame.keySet());
        assertThat(frame.get("enc")).isEqualTo("clear");
        assertThat(Wire.bytes(frame, "sig")).hasSameSizeAs(Wire.bytes(saltFrame, "sig"));
        Map<String, Object> opened = SignedClear.open(sealed, Vectors.masterPub());
        assertThat(opened.keySet()).containsExactlyElementsOf(original.toLoad().keySet());
        AuthReply back = AuthReply.fromLoad(opened);
        assertThat(back.outcome()).isEqualTo(AuthReply.Outcome.ACCEPTED);
        assertThat(back.publishPort()).isEqualTo(4505);
        assertThat(back.nonce()).isEqualTo("0123456789abcdef0123456789abcdef");
        assertThat(Rsa.oaepDecrypt(Vectors.minionPem(), back.aes())).asString(StandardCharsets.US_ASCII).isEqualTo("a session key");
    }

    @Test
    void refusesAReplyWhoseSignatureHasOneFlippedByte() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN1, "002")));
        byte[] sig = Wire.bytes(frame, "sig").clone();
        sig[sig.length / 2] ^= 0x01;
        frame.put("sig", sig);

        byte[] tampered = SaltPack.pack(frame);

        assertThatThrownBy(() -> SignedClear.open(tampered, Vectors.masterPub()))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("signature");
    }

    @Test
    void refusesAReplyWhoseLoadWasChangedAfterSigning() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN2, "002")));
        Map<String, Object> load = Wire.asMap(SaltPack.unpack(Wire.bytes(frame, "load")));
        load.put("ret", false);
        frame.put("load", SaltPack.pack(load));

        byte[] tampered = SaltPack.pack(frame);

        assertThatThrownBy(() -> SignedClear.open(tampered, Vectors.masterPub())).isInstanceOf(WireException.class);
        assertThat(SignedClear.peek(tampered)).containsEntry("ret", false);
    }

    @Test
    void refusesAReplyWithoutASignature() {
        Map<String, Object> frame = Wire.asMap(SaltPack.unpack(Vectors.frame(RUN2, "002")));
        frame.remove("sig");

        byte[] unsigned = SaltPack.pack(frame);

        assertThatThrownBy(() -> SignedClear.open(unsigned, Vectors.masterPub()))
                .isInstanceOf(WireException.class)
                .hasMessageContaining("'sig'");
    }

    @Test
    void refusesAReplySignedByAnotherKey() {
        assertThatThrownBy(() -> SignedClear.open(Vectors.frame(RUN1, "002"), Vectors.minionPub()))
                .isInstanceOf(WireException.class);
    }

    @Test
    void peeksAtTheLoadWithoutAKeyToLearnTheMasterKey() {
        Map<String, Object> load = SignedClear.peek(Vectors.frame(RUN1, "002"));

        assertThat(load).containsEntry("pub_key", Vectors.masterPubPem());
    }

    @Test
    void roundTripsRejectedAndFullReplies() {
        for (AuthReply.Outcome outcome : List.of(AuthReply.Outcome.REJECTED, AuthReply.Outcome.FULL, AuthReply.Outcome.PENDING)) {
            byte[] sealed = SignedClear.seal(AuthReply.of(outcome, "n").toLoad(), Vectors.masterPem());

            AuthReply back = AuthReply.fromLoad(SignedClear.open(sealed, Vectors.masterPub()));

            assertThat(back.outcome()).as(outcome.name()).isEqualTo(outcome);
            assertThat(back.nonce()).isEqualTo("n");
        }
        assertThat(AuthReply.of(AuthReply.Outcome.REJECTED, null).toLoad()).containsEntry("ret", false);
        assertThat(AuthReply.of(AuthReply.Outcome.FULL, null).toLoad()).containsEntry("ret", "full");
    }

    @Test
    void refusesToBuildAnAcceptedReplyWithoutKeys() {
        assertThatThrownBy(() -> AuthReply.of(AuthReply.Outcome.ACCEPTED, "n")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAnUnrecognisedReply() {
        assertThatThrownBy(() -> AuthReply.fromLoad(Map.of("ret", "maybe"))).isInstanceOf(WireException.class);
        assertThatThrownBy(() -> AuthReply.fromLoad(Map.of("nonce", "n"))).isInstanceOf(WireException.class);
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
