package io.jsalt.minion.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.minion.grains.GrainsReport;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.SessionCipher;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's private {@code _pillar} reply, checked against the capture of a real salt-master 3006.8. */
class PrivateReplyTest {
    private static final String FRAMES = "frames/run1-auto-accept/";
    private static final KeyPair MASTER = SaltVectors.masterKeyPair();
    private static final KeyPair MINION = SaltVectors.minionKeyPair();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pillarRequest() {
        Map<String, Object> frame = SaltVectors.json(FRAMES + "004-minion-to-master-pillar-request.json");
        return (Map<String, Object>) ((Map<String, Object>) frame.get("load_crypticle")).get("decoded");
    }

    @Test
    void opensTheEmptyPillarASaltMasterAnsweredToTheCapturedRequest() {
        String nonce = (String) pillarRequest().get("nonce");
        Object reply = SaltPack.unpack(SaltVectors.bytes(FRAMES + "005-master-to-minion-pillar-reply.bin"));

        Object pillar = PrivateReply.open(reply, "pillar", nonce, MINION.getPrivate(), MASTER.getPublic());

        assertThat(pillar).isEqualTo(Map.of());
    }

    @Test
    void refusesTheCapturedReplyAsTheAnswerToAnotherRequest() {
        Object reply = SaltPack.unpack(SaltVectors.bytes(FRAMES + "005-master-to-minion-pillar-reply.bin"));

        assertThatThrownBy(() -> PrivateReply.open(reply, "pillar", SessionCipher.newNonce(), MINION.getPrivate(), MASTER.getPublic()))
                .isInstanceOf(CryptoException.class).hasMessageContaining("nonce");
    }

    @Test
    void refusesAReplySignedByAKeyOtherThanTheMasters() {
        String nonce = SessionCipher.newNonce();
        Object forged = reply(MINION, nonce); // sealed correctly, signed by the wrong key

        assertThatThrownBy(() -> PrivateReply.open(forged, "pillar", nonce, MINION.getPrivate(), MASTER.getPublic()))
                .isInstanceOf(CryptoException.class).hasMessageContaining("not signed by the master");
    }

    @Test
    void sendsTheSameGrainsRequestKeysAsASaltMinion() {
        Map<String, Object> salt = new LinkedHashMap<>(pillarRequest());
        salt.remove("nonce"); // added by the channel

        Map<String, Object> ours = GrainsReport.load("vector-minion", Map.of("id", "vector-minion"));

        assertThat(ours.keySet()).containsExactlyElementsOf(salt.keySet());
        assertThat(ours).containsEntry("ver", "2").containsEntry("cmd", "_pillar").containsEntry("saltenv", null)
                .containsEntry("pillarenv", null).containsEntry("pillar_override", Map.of())
                .containsEntry("extra_minion_data", Map.of());
    }

    private static Map<String, Object> reply(KeyPair signer, String nonce) {
        String oneOff = Crypticle.generateKeyString();
        byte[] sealedKey = Rsa.oaepEncrypt(MINION.getPublic(), oneOff.getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("key", sealedKey);
        signed.put("pillar", Map.of());
        signed.put("nonce", nonce);
        byte[] data = SaltPack.pack(signed);
        Map<String, Object> envelope = Map.of("data", data, "sig", Rsa.sign(signer.getPrivate(), data));
        return Map.of("key", sealedKey, "pillar", new Crypticle(oneOff).seal(SaltPack.pack(envelope), null));
    }
}
