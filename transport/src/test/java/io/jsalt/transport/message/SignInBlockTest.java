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

/** The one-block sign-in as a codec: what one OAEP block carries, what does not fit, what does not open. Vector keys. */
class SignInBlockTest {
    private static final String SESSION_KEY = Crypticle.generateKeyString();
    /** A jsalt minion's token: Salt's key string, 76 characters. */
    private static final byte[] TOKEN = Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII);

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
    void sessionKeyTokenAndSecretFitOneBlockOfA2048BitKeyAndComeBackWhole() {
        byte[] aes = SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, TOKEN, mac(5)).orElseThrow();

        assertThat(aes).hasSize(256);
        assertThat(Rsa.oaepDecrypt(Vectors.minionPem(), aes)).hasSize(190); // 76 + 3 + 76 + 3 + 32; OAEP-SHA-1 takes 214
        SignInBlock.Opened opened = SignInBlock.open(reply(aes), Vectors.minionPem());
        assertThat(opened.sessionKey()).isEqualTo(SESSION_KEY);
        assertThat(opened.token()).isEqualTo(TOKEN);
        Map<String, Object> ret = new ReturnLoad("vector-minion", "20261122064522705359", "test.ping", List.of(), true, 0, true).toLoad();
        assertThat(mac(5).valid(opened.returnMac().seal(ret))).isTrue();
        assertThat(opened.toString()).doesNotContain(SESSION_KEY);
    }

    @Test
    void aTokenHoldingTheSeparatorOrNoneComesBackAsSent() {
        byte[] odd = "a_|-b_|-".getBytes(StandardCharsets.US_ASCII);

        assertThat(SignInBlock.open(reply(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, odd, mac(1)).orElseThrow()),
                Vectors.minionPem()).token()).isEqualTo(odd);
        assertThat(SignInBlock.open(reply(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, null, mac(1)).orElseThrow()),
                Vectors.minionPem()).token()).isEmpty();
    }

    @Test
    void aBlockThatWouldNotFitOneOaepBlockIsNotMade() {
        byte[] longest = Arrays.copyOf(TOKEN, TOKEN.length + 24); // 214 bytes in all: OAEP-SHA-1's most for 2048 bits
        byte[] longer = Arrays.copyOf(TOKEN, TOKEN.length + 25);

        assertThat(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, longest, mac(1))).isPresent();
        assertThat(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, longer, mac(1))).isEmpty();
    }

    @Test
    void refusesABlockForAnotherKeyNotInTheFormatOrOfAnUnknownFormat() {
        byte[] forTheMaster = SignInBlock.seal(Vectors.masterPub(), SESSION_KEY, TOKEN, mac(1)).orElseThrow();
        byte[] sessionKeyAlone = Rsa.oaepEncrypt(Vectors.minionPub(), SESSION_KEY.getBytes(StandardCharsets.US_ASCII));
        byte[] shortBlock = Rsa.oaepEncrypt(Vectors.minionPub(), "k_|-t".getBytes(StandardCharsets.US_ASCII));
        Map<String, Object> otherFormat = reply(SignInBlock.seal(Vectors.minionPub(), SESSION_KEY, TOKEN, mac(1)).orElseThrow());
        otherFormat.put(SignInBlock.ASK, "key-token-secret-v9");

        assertThatThrownBy(() -> SignInBlock.open(reply(forTheMaster), Vectors.minionPem())).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> SignInBlock.open(reply(sessionKeyAlone), Vectors.minionPem())).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> SignInBlock.open(reply(shortBlock), Vectors.minionPem())).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> SignInBlock.open(otherFormat, Vectors.minionPem())).isInstanceOf(CryptoException.class);
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
