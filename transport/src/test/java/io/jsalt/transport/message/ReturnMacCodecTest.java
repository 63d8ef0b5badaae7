package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** jsalt's return MAC as a codec: what it covers, how it travels, what it refuses. Uses the vector keys (no keygen). */
class ReturnMacCodecTest {
    private static final byte[] SECRET = secret(1);

    private final ReturnLoad ret = new ReturnLoad("vector-minion", "20261122064522705359", "test.arg",
            List.of(1L, Map.of("__kwarg__", true, "two", 2L)), Map.of("args", List.of(1L)), 0, true);

    @Test
    void aSealedReturnVerifiesWithItsSecretAfterCrossingTheEncryptedRequestChannel() {
        SessionCipher cipher = new SessionCipher(new Crypticle(Crypticle.generateKeyString()));
        byte[] frame = cipher.encryptRequest(new ReturnMac(SECRET).seal(ret.toLoad()), SessionCipher.newNonce());

        Map<String, Object> received = cipher.decryptRequest(RequestEnvelope.decode(frame).aesLoad());
        received.remove("nonce");

        assertThat(received.get(ReturnMac.FIELD)).isInstanceOf(String.class);
        assertThat(new ReturnMac(SECRET).valid(received)).isTrue();
        assertThat(ReturnLoad.fromLoad(received)).isEqualTo(ret);
    }

    @Test
    void refusesAnotherSecretAChangedFieldAndAMissingMac() {
        Map<String, Object> sealed = new ReturnMac(SECRET).seal(ret.toLoad());
        Map<String, Object> changed = new LinkedHashMap<>(sealed);
        changed.put("retcode", 1);
        Map<String, Object> added = new LinkedHashMap<>(sealed);
        added.put("out", "highstate");

        assertThat(new ReturnMac(secret(2)).valid(sealed)).isFalse();
        assertThat(new ReturnMac(SECRET).valid(changed)).isFalse();
        assertThat(new ReturnMac(SECRET).valid(added)).isFalse();
        assertThat(new ReturnMac(SECRET).valid(ret.toLoad())).isFalse();
    }

    @Test
    void refusesAMacThatIsNotBase64TextOrALoadThatAlsoCarriesASignature() {
        Map<String, Object> sealed = new ReturnMac(SECRET).seal(ret.toLoad());
        Map<String, Object> raw = new LinkedHashMap<>(sealed);
        raw.put(ReturnMac.FIELD, Base64.getDecoder().decode((String) sealed.get(ReturnMac.FIELD)));
        Map<String, Object> garbage = new LinkedHashMap<>(sealed);
        garbage.put(ReturnMac.FIELD, "not base64!");
        Map<String, Object> both = new LinkedHashMap<>(sealed);
        both.put(MinionSignature.FIELD, "c2ln");

        assertThat(new ReturnMac(SECRET).valid(raw)).isFalse();
        assertThat(new ReturnMac(SECRET).valid(garbage)).isFalse();
        assertThat(new ReturnMac(SECRET).valid(both)).isFalse();
    }

    @Test
    void sealingReplacesASignatureInsteadOfCoveringIt() {
        Map<String, Object> sealed = new ReturnMac(SECRET).seal(ret.toSignedLoad(Vectors.minionPem()));

        assertThat(sealed).doesNotContainKey(MinionSignature.FIELD);
        assertThat(new ReturnMac(SECRET).valid(sealed)).isTrue();
    }

    @Test
    void theSecretTravelsEncryptedToTheMinionsKeyAndOpensOnlyWithIt() {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put(ReturnMac.KEY_FIELD, new ReturnMac(SECRET).sealedFor(Vectors.minionPub()));

        ReturnMac opened = ReturnMac.fromSignInReply(reply, Vectors.minionPem()).orElseThrow();

        assertThat(opened.valid(new ReturnMac(SECRET).seal(ret.toLoad()))).isTrue();
        assertThatThrownBy(() -> ReturnMac.fromSignInReply(reply, Vectors.masterPem())).isInstanceOf(CryptoException.class);
        assertThat(ReturnMac.fromSignInReply(Map.of("enc", "pub"), Vectors.minionPem())).isEmpty();
    }

    @Test
    void onlyTheKnownAlgorithmIsAskedForAndTheSecretIsNeverPrinted() {
        assertThat(ReturnMac.asked(Map.of(ReturnMac.ASK, ReturnMac.ALGORITHM))).isTrue();
        assertThat(ReturnMac.asked(Map.of(ReturnMac.ASK, "hmac-md5"))).isFalse();
        assertThat(ReturnMac.asked(Map.of())).isFalse();
        assertThat(new ReturnMac(SECRET).toString()).doesNotContain(Base64.getEncoder().encodeToString(SECRET));
        assertThatThrownBy(() -> new ReturnMac(new byte[16])).isInstanceOf(CryptoException.class);
    }

    private static byte[] secret(int seed) {
        byte[] s = new byte[ReturnMac.SECRET_BYTES];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (seed * 31 + i);
        }
        return s;
    }
}
