package io.jsalt.crypto;

import static io.jsalt.crypto.SaltVectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class RsaOaepAndSignatureTest {
    private static final PrivateKey MINION = RsaKeys.parsePrivateKey(SaltVectors.text("keys/minion.pem"));
    private static final PrivateKey MASTER = RsaKeys.parsePrivateKey(SaltVectors.text("keys/master.pem"));
    private static final PublicKey MINION_PUB = RsaKeys.parsePublicKey(SaltVectors.text("keys/minion.pub"));
    private static final PublicKey MASTER_PUB = RsaKeys.parsePublicKey(SaltVectors.text("keys/master.pub"));
    private static final String AUTH_REPLY =
            SaltVectors.text("frames/run1-auto-accept/002-master-to-minion-auth-reply-accepted.json");
    private static final String SIGNATURE_VECTOR = SaltVectors.text("known-answer/c-sign-message-pkcs1v15-sha1.json");

    @Test
    void minionKeyDecryptsTheSessionKeyOfARealAuthReply() {
        byte[] aes = Base64.getDecoder().decode(SaltVectors.b64(AUTH_REPLY, "aes"));
        String sessionKey = new String(Rsa.oaepDecrypt(MINION, aes), StandardCharsets.US_ASCII);
        assertThat(sessionKey)
                .isEqualTo(SaltVectors.string(AUTH_REPLY, "session_key"))
                .isEqualTo(SaltVectors.string(AUTH_REPLY, "aes_decrypted_with_minion_pem"))
                .hasSize(76);
    }

    @Test
    void oaepRoundTripsAndIsRandomized() {
        byte[] secret = Crypticle.generateKeyString().getBytes(StandardCharsets.US_ASCII);
        byte[] first = Rsa.oaepEncrypt(MASTER_PUB, secret);
        byte[] second = Rsa.oaepEncrypt(MASTER_PUB, secret);
        assertThat(first).hasSize(256).isNotEqualTo(second);
        assertThat(Rsa.oaepDecrypt(MASTER, first)).isEqualTo(secret);
    }

    @Test
    void oaepDecryptWithTheWrongKeyFails() {
        byte[] sealed = Rsa.oaepEncrypt(MASTER_PUB, new byte[] {1, 2, 3});
        assertThatThrownBy(() -> Rsa.oaepDecrypt(MINION, sealed)).isInstanceOf(CryptoException.class);
    }

    @Test
    void signatureEqualsSaltsSignMessageExactly() {
        byte[] message = SaltVectors.string(SIGNATURE_VECTOR, "message_utf8").getBytes(StandardCharsets.UTF_8);
        byte[] expected = hex(SaltVectors.string(SIGNATURE_VECTOR, "signature_hex"));
        assertThat(Rsa.sign(MASTER, message)).isEqualTo(expected);
        assertThat(Rsa.verify(MASTER_PUB, message, expected)).isTrue();
    }

    @Test
    void verifyIsFalseWhenOneBitOfTheSignatureFlips() {
        byte[] message = SaltVectors.string(SIGNATURE_VECTOR, "message_utf8").getBytes(StandardCharsets.UTF_8);
        byte[] signature = hex(SaltVectors.string(SIGNATURE_VECTOR, "signature_hex"));
        signature[100] ^= 0x01;
        assertThat(Rsa.verify(MASTER_PUB, message, signature)).isFalse();
    }

    @Test
    void verifyIsFalseForAnotherKeyOrMessageOrGarbage() {
        byte[] message = "salt wire vectors".getBytes(StandardCharsets.UTF_8);
        byte[] signature = hex(SaltVectors.string(SIGNATURE_VECTOR, "signature_hex"));
        assertThat(Rsa.verify(MINION_PUB, message, signature)).isFalse();
        assertThat(Rsa.verify(MASTER_PUB, "salt wire vector".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
        assertThat(Rsa.verify(MASTER_PUB, message, new byte[] {1, 2, 3})).isFalse();
        assertThat(Rsa.verify(MASTER_PUB, message, new byte[0])).isFalse();
        byte[] overModulus = new byte[256];
        Arrays.fill(overModulus, (byte) 0xFF);
        assertThat(Rsa.verify(MASTER_PUB, message, overModulus)).isFalse();
        assertThat(Rsa.verify(MASTER_PUB, message, null)).isFalse();
    }

    @Test
    void aSha256SignatureVerifiesWithItsKeyOnlyAndIsNotASha1One() {
        byte[] message = "relayed publication".getBytes(StandardCharsets.UTF_8);
        byte[] signature = Rsa.signSha256(MASTER, message);

        assertThat(Rsa.verifySha256(MASTER_PUB, message, signature)).isTrue();
        assertThat(Rsa.verifySha256(MINION_PUB, message, signature)).isFalse();
        assertThat(Rsa.verifySha256(MASTER_PUB, "relayed publicatio".getBytes(StandardCharsets.UTF_8), signature)).isFalse();
        assertThat(Rsa.verify(MASTER_PUB, message, signature)).as("not a SHA-1 signature").isFalse();
        assertThat(Rsa.verifySha256(MASTER_PUB, message, new byte[] {1, 2})).isFalse();
    }

    @Test
    void verifyAcceptsTheSignedEnvelopeOfARealAuthReply() {
        byte[] load = Base64.getDecoder().decode(SaltVectors.b64(AUTH_REPLY, "load"));
        byte[] sig = Base64.getDecoder().decode(SaltVectors.b64(AUTH_REPLY, "sig"));
        assertThat(Rsa.verify(MASTER_PUB, load, sig)).isTrue();
        assertThat(Rsa.verify(MINION_PUB, load, sig)).isFalse();
    }
}
