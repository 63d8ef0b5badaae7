package io.jsalt.crypto;

import static io.jsalt.crypto.SaltVectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CrypticleTest {
    private static final String VECTORS = SaltVectors.text("known-answer/b-crypticle-fixed-iv.json");
    private static final String KEY = SaltVectors.string(VECTORS, "key_string");
    private static final byte[] IV = hex(SaltVectors.string(VECTORS, "iv_hex"));
    private static final List<String> OUTPUTS = SaltVectors.strings(VECTORS, "output_hex");
    private static final byte[] RAW_PLAINTEXT = hex(SaltVectors.string(VECTORS, "plaintext_hex"));
    private static final List<String> DUMPS_PLAINTEXTS = SaltVectors.strings(VECTORS, "inner_plaintext_hex");
    private static final String NONCE = SaltVectors.string(VECTORS, "nonce");
    private static final byte[] PICKLE = "pickle::".getBytes(StandardCharsets.US_ASCII);

    private final Crypticle crypticle = new Crypticle(KEY);

    @Test
    void rawEncryptWithFixedIvMatchesSalt() {
        assertThat(crypticle.encrypt(RAW_PLAINTEXT, IV)).isEqualTo(hex(OUTPUTS.get(0)));
        assertThat(crypticle.decrypt(hex(OUTPUTS.get(0)))).isEqualTo(RAW_PLAINTEXT);
    }

    @Test
    void dumpsOfAPublicationMatchesSalt() {
        byte[] inner = hex(DUMPS_PLAINTEXTS.get(0));
        assertThat(crypticle.encrypt(inner, IV)).isEqualTo(hex(OUTPUTS.get(1)));
        byte[] msgpack = Arrays.copyOfRange(inner, PICKLE.length, inner.length);
        assertThat(crypticle.open(hex(OUTPUTS.get(1)), null)).isEqualTo(msgpack);
    }

    @Test
    void dumpsWithANonceMatchesSalt() {
        byte[] inner = hex(DUMPS_PLAINTEXTS.get(1));
        assertThat(crypticle.encrypt(inner, IV)).isEqualTo(hex(OUTPUTS.get(2)));
        // msgpack True is the single byte 0xc3
        assertThat(crypticle.open(hex(OUTPUTS.get(2)), NONCE)).containsExactly((byte) 0xC3);
    }

    @Test
    void sealThenOpenWithTheSameNonceGivesThePayloadBack() {
        byte[] payload = {(byte) 0x81, (byte) 0xA1, 'a', 0x01};
        byte[] sealed = crypticle.seal(payload, NONCE);
        assertThat(crypticle.decrypt(sealed)).startsWith(PICKLE);
        assertThat(crypticle.open(sealed, NONCE)).isEqualTo(payload);
    }

    @Test
    void sealWithoutNonceOpensWithoutNonce() {
        byte[] payload = {(byte) 0xC3};
        assertThat(crypticle.open(crypticle.seal(payload, null), null)).isEqualTo(payload);
    }

    @Test
    void openRejectsAnotherNonce() {
        byte[] sealed = crypticle.seal(new byte[] {(byte) 0xC3}, NONCE);
        assertThatThrownBy(() -> crypticle.open(sealed, "ffffffffffffffffffffffffffffffff"))
                .isInstanceOf(CryptoException.class)
                .isNotInstanceOf(CrypticleAuthException.class)
                .hasMessageContaining("nonce mismatch");
    }

    @Test
    void openRejectsAReplyThatCarriesNoNonceWhenOneIsExpected() {
        byte[] sealed = crypticle.seal(new byte[] {(byte) 0xC3}, null);
        assertThatThrownBy(() -> crypticle.open(sealed, NONCE)).hasMessageContaining("nonce mismatch");
    }

    @Test
    void openRejectsPlaintextWithoutThePicklePrefix() {
        byte[] sealed = crypticle.encrypt("hello salt".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> crypticle.open(sealed, null))
                .isInstanceOf(CryptoException.class)
                .hasMessageContaining("pickle::");
    }

    @Test
    void sealRefusesANonceThatIsNot32Characters() {
        assertThatThrownBy(() -> crypticle.seal(new byte[0], "abc")).isInstanceOf(CryptoException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 16, 31, 47})
    void aTamperedByteAnywhereFailsTheHmac(int position) {
        byte[] data = hex(OUTPUTS.get(0));
        data[position] ^= 0x40;
        assertThatThrownBy(() -> crypticle.decrypt(data)).isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void tamperingTheLastMacByteFailsTheHmac() {
        byte[] data = hex(OUTPUTS.get(2));
        data[data.length - 1] ^= 0x01;
        assertThatThrownBy(() -> crypticle.open(data, NONCE)).isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void anotherSessionKeyFailsTheHmac() {
        Crypticle other = new Crypticle(Crypticle.generateKeyString());
        byte[] sealed = other.seal(new byte[] {(byte) 0xC3}, NONCE);
        assertThatThrownBy(() -> crypticle.open(sealed, NONCE)).isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void inputShorterThanIvAndMacFailsAuthentication() {
        assertThatThrownBy(() -> crypticle.decrypt(new byte[47])).isInstanceOf(CrypticleAuthException.class);
        assertThatThrownBy(() -> crypticle.decrypt(new byte[0])).isInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void badPaddingBehindAValidHmacIsACryptoErrorNotAnAuthError() throws Exception {
        byte[] ivAndCipher = Arrays.copyOf(hex(OUTPUTS.get(0)), 32);
        ivAndCipher[20] ^= 0x01; // CBC: garbles the only block, so its padding no longer checks
        byte[] hmacKey = Arrays.copyOfRange(Base64.getDecoder().decode(KEY), 24, 56);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(hmacKey, "HmacSHA256"));
        byte[] forged = concat(ivAndCipher, mac.doFinal(ivAndCipher));

        assertThatThrownBy(() -> crypticle.decrypt(forged))
                .isInstanceOf(CryptoException.class)
                .isNotInstanceOf(CrypticleAuthException.class);
    }

    @Test
    void encryptUsesAFreshIvEachTime() {
        byte[] first = crypticle.encrypt(RAW_PLAINTEXT);
        byte[] second = crypticle.encrypt(RAW_PLAINTEXT);
        assertThat(Arrays.copyOf(first, 16)).isNotEqualTo(Arrays.copyOf(second, 16));
        assertThat(crypticle.decrypt(first)).isEqualTo(RAW_PLAINTEXT);
        assertThat(crypticle.decrypt(second)).isEqualTo(RAW_PLAINTEXT);
    }

    @Test
    void generatedKeyStringsAre76Base64CharactersOf56Bytes() {
        String key = Crypticle.generateKeyString();
        assertThat(key).hasSize(76).isNotEqualTo(Crypticle.generateKeyString());
        assertThat(Base64.getDecoder().decode(key)).hasSize(56);
        assertThat(new Crypticle(key).keyString()).isEqualTo(key);
    }

    @Test
    void keyStringGivesTheKeyBack() {
        assertThat(crypticle.keyString()).isEqualTo(KEY);
        assertThat(crypticle.toString()).doesNotContain(KEY);
    }

    @Test
    void keyOfTheWrongSizeOrNotBase64IsRefused() {
        String shortKey = Base64.getEncoder().encodeToString(new byte[32]);
        assertThatThrownBy(() -> new Crypticle(shortKey)).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> new Crypticle("not base64 at all!")).isInstanceOf(CryptoException.class);
        assertThatThrownBy(() -> new Crypticle(null)).isInstanceOf(CryptoException.class);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
