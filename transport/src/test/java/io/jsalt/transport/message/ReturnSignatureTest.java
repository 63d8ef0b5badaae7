package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.transport.codec.SaltPack;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Salt's minion_sign_messages on returns: who may speak for a minion. Uses the vector keys (no keygen). */
class ReturnSignatureTest {

    private final ReturnLoad ret = new ReturnLoad("vector-minion", "20261122064522705359", "test.arg",
            List.of(1L, Map.of("__kwarg__", true, "two", 2L)), Map.of("args", List.of(1L)), 0, true);

    @Test
    void acceptsAReturnSignedByTheMinionsKey() {
        Map<String, Object> signed = ret.toSignedLoad(Vectors.minionPem());

        assertThat(signed).containsKey("sig");
        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isTrue();
    }

    @Test
    void signsOverTheLoadPackedWithBinTypeBeforeSigIsAdded() {
        Map<String, Object> signed = ret.toSignedLoad(Vectors.minionPem());

        // base64 text: a salt-master fires the load, sig included, on its bus, where raw bytes break state.event
        assertThat(signed.get("sig")).isInstanceOf(String.class);
        byte[] sig = java.util.Base64.getDecoder().decode((String) signed.get("sig"));

        assertThat(Rsa.verify(Vectors.minionPub(), SaltPack.packBinType(ret.toLoad()), sig)).isTrue();
    }

    @Test
    void acceptsASaltMinionsRawSignatureBytes() {
        Map<String, Object> load = ret.toLoad();
        load.put("sig", Rsa.sign(Vectors.minionPem(), SaltPack.packBinType(ret.toLoad())));

        assertThat(ReturnLoad.signatureValid(load, Vectors.minionPub())).isTrue();
    }

    @Test
    void acceptsASignedReturnAfterItCrossedTheEncryptedRequestChannel() {
        SessionCipher cipher = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));
        byte[] frame = cipher.encryptRequest(ret.toSignedLoad(Vectors.minionPem()), SessionCipher.newNonce());

        Map<String, Object> received = cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad());
        received.remove("nonce"); // the master strips the request nonce first, as Salt's ReqServerChannel does

        assertThat(ReturnLoad.signatureValid(received, Vectors.minionPub())).isTrue();
        assertThat(ReturnLoad.fromLoad(received)).isEqualTo(ret);
    }

    @Test
    void rejectsReturnSignedByAnotherKey() {
        Map<String, Object> signed = ret.toSignedLoad(Vectors.masterPem());

        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnWhoseResultWasChangedAfterSigning() {
        Map<String, Object> signed = new LinkedHashMap<>(ret.toSignedLoad(Vectors.minionPem()));
        signed.put("return", Map.of("args", List.of(2L)));

        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnThatClaimsAnotherMinionsId() {
        Map<String, Object> signed = new LinkedHashMap<>(ret.toSignedLoad(Vectors.minionPem()));
        signed.put("id", "other-minion");

        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnWhoseRetcodeWasChangedAfterSigning() {
        Map<String, Object> signed = new LinkedHashMap<>(ret.toSignedLoad(Vectors.minionPem()));
        signed.put("retcode", 1);

        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnWithAFieldAddedAfterSigning() {
        Map<String, Object> signed = new LinkedHashMap<>(ret.toSignedLoad(Vectors.minionPem()));
        signed.put("out", "highstate");

        assertThat(ReturnLoad.signatureValid(signed, Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnWithoutSig() {
        assertThat(ReturnLoad.signatureValid(ret.toLoad(), Vectors.minionPub())).isFalse();
    }

    @Test
    void rejectsReturnWhoseSigIsGarbage() {
        Map<String, Object> load = ret.toLoad();
        load.put("sig", new byte[] {1, 2, 3});

        assertThat(ReturnLoad.signatureValid(load, Vectors.minionPub())).isFalse();
    }
}
