package io.jsalt.transport.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one-block sign-in as a codec: what one OAEP block carries, what does not open. Vector keys (no keygen). */
class SignInBlockTest {
    private static final String SESSION_KEY = Crypticle.generateKeyString();

    private static ReturnMac mac(int fill) {
        byte[] secret = new byte[ReturnMac.SECRET_BYTES];
        Arrays.fill(secret, (byte) fill);
        return new ReturnMac(secret);
    }

    private static Map<String, Object> reply(byte[] aes) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("aes", aes);
        reply.put(SignInBlock.ASK, SignInBlock.FORMAT);
        return reply;
    }

    @Test
    void sessionKeyAndSecretTravelInOneBlockOfTheMinionsKeyAndComeBackWhole() {
        byte[] aes = SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, mac(5));

        assertThat(aes).hasSize(256);
        assertThat(Rsa.oaepDecrypt(Vectors.minionPem(), aes)).hasSize(76 + 3 + 32);
        SignInBlock.Opened opened = SignInBlock.open(reply(aes), Vectors.minionPem());
        assertThat(opened.sessionKey()).isEqualTo(SESSION_KEY);
        Map<String, Object> ret = new ReturnLoad("vector-minion", "20261122064522705359", "test.ping", List.of(), true, 0, true).toLoad();
        assertThat(mac(5).valid(opened.returnMac().seal(ret))).isTrue();
        assertThat(mac(6).valid(opened.returnMac().seal(ret))).isFalse();
        assertThat(opened.toString()).doesNotContain(SESSION_KEY);
    }

    @Test
    void aSecretHoldingTheSeparatorComesBackWhole() {
        byte[] secret = new byte[ReturnMac.SECRET_BYTES];
        byte[] separator = "_|-".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + 3 <= secret.length; i += 3) {
            System.arraycopy(separator, 0, secret, i, 3);
        }
        byte[] aes = SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, new ReturnMac(secret));

        SignInBlock.Opened opened = SignInBlock.open(reply(aes), Vectors.minionPem());

        assertThat(opened.sessionKey()).isEqualTo(SESSION_KEY);
        Map<String, Object> ret = new ReturnLoad("vector-minion", "20261122064522705359", "test.ping", List.of(), true, 0, true).toLoad();
        assertThat(new ReturnMac(secret).valid(opened.returnMac().seal(ret))).isTrue();
    }

    @Test
    void refusesABlockForAnotherKeyNotInTheFormatOrOfAnUnknownFormat() {
        byte[] forTheMaster = SignInBlock.seal(Vectors.masterPub(), SESSION_KEY, mac(1));
        byte[] sessionKeyAlone = Rsa.oaepEncrypt(Vectors.minionPub(), SESSION_KEY.getBytes(StandardCharsets.US_ASCII));
        byte[] tokenToo = Rsa.oaepEncrypt(Vectors.minionPub(), (SESSION_KEY + "_|-" + SESSION_KEY + "_|-" + "x".repeat(32))
                .getBytes(StandardCharsets.US_ASCII));
        byte[] shortBlock = Rsa.oaepEncrypt(Vectors.minionPub(), "_|-".getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> otherFormat = reply(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, mac(1)));
        otherFormat.put(SignInBlock.ASK, "key-token-secret");
        Map<String, Object> noAes = reply(null);

        for (Map<String, Object> bad : List.of(reply(forTheMaster), reply(sessionKeyAlone), reply(tokenToo), reply(shortBlock),
                otherFormat, noAes)) {
            assertThatThrownBy(() -> SignInBlock.open(bad, Vectors.minionPem())).isInstanceOf(CryptoException.class);
        }
    }

    @Test
    void onlyARequestAskingForTheBlockAndAReturnSecretGetsIt() {
        Map<String, Object> both = new LinkedHashMap<>(Map.of(SignInBlock.ASK, SignInBlock.FORMAT, ReturnMac.ASK, ReturnMac.ALGORITHM));
        Map<String, Object> blockOnly = new LinkedHashMap<>(Map.of(SignInBlock.ASK, SignInBlock.FORMAT));
        Map<String, Object> otherFormat = new LinkedHashMap<>(Map.of(SignInBlock.ASK, "v9", ReturnMac.ASK, ReturnMac.ALGORITHM));

        assertThat(SignInBlock.asked(both)).isTrue();
        assertThat(SignInBlock.asked(blockOnly)).isFalse();
        assertThat(SignInBlock.asked(otherFormat)).isFalse();
        assertThat(SignInBlock.asked(Map.of())).isFalse();
    }
}
